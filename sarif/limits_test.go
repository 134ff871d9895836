package sarif_test

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/sarif"
)

func manyFindings(n int) *agc.Response {
	r := &agc.Response{AGC: "0.1", Gate: agc.Gate{ID: "big", Kind: agc.Deterministic},
		Subject: agc.Subject{Kind: agc.SubjectCommit, Fingerprint: "sha256:00"}, Verdict: agc.Allow,
		Coverage: agc.Coverage{Complete: true, Classes: []string{"c"}}, Attempt: agc.Attempt{N: 1, Budget: 1}}
	for i := range n {
		r.Findings = append(r.Findings, agc.Finding{ID: fmt.Sprintf("big/c/f%d", i), Class: "c", Location: fmt.Sprintf("f%d.go", i),
			What: "w", Why: "y", Severity: agc.Advisory, Status: agc.StatusNew,
			Remedy: agc.Remedy{Kind: agc.RemedyCommand, Run: "true"}, Check: agc.Check{Kind: agc.CheckPreview}})
	}
	return r
}

// manyClasses is a response with n classes and no findings.
func manyClasses(n int) *agc.Response {
	r := manyFindings(0)
	r.Coverage.Classes = nil
	for i := range n {
		r.Coverage.Classes = append(r.Coverage.Classes, fmt.Sprint("c", i))
	}
	return r
}

// TestLimits: GitHub's limits are checked before a run is written, with
// an error naming the limit, the count and the place in the whole log.
func TestLimits(t *testing.T) {
	small := manyFindings(1)
	tests := []struct {
		name  string
		resps []*agc.Response
		want  string
	}{
		{"results", []*agc.Response{manyFindings(sarif.MaxResultsPerRun + 1)}, "/runs/0/results: 25001 results in one run, GitHub accepts at most 25000"},
		{"results of the third run", []*agc.Response{small, small, manyFindings(sarif.MaxResultsPerRun + 1)}, "/runs/2/results: 25001 results in one run, GitHub accepts at most 25000"},
		{"rules", []*agc.Response{manyClasses(sarif.MaxRulesPerRun + 1)}, "/runs/0/tool/driver/rules: 25001 rules in one run, GitHub accepts at most 25000"},
		{"runs", func() []*agc.Response {
			var rs []*agc.Response
			for range sarif.MaxRuns + 1 {
				rs = append(rs, manyFindings(0))
			}
			return rs
		}(), "/runs: 21 runs, GitHub accepts at most 20"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := sarif.Write(io.Discard, tt.resps, sarif.WriteOptions{})
			var le *sarif.LimitError
			if !errors.As(err, &le) || err.Error() != tt.want {
				t.Errorf("Write = %v, want %q", err, tt.want)
			}
		})
	}
	rs := []*agc.Response{manyFindings(sarif.MaxResultsPerRun), manyClasses(sarif.MaxRulesPerRun)}
	if err := sarif.Write(io.Discard, rs, sarif.WriteOptions{}); err != nil {
		t.Errorf("exactly the limits must pass: %v", err)
	}
}

// TestWriteError: a failing writer's error is Write's, wherever it fails.
func TestWriteError(t *testing.T) {
	rs := []*agc.Response{manyFindings(2000), manyFindings(0)}
	for _, n := range []int{0, 1, 2, 3} {
		w := &failingWriter{after: n}
		if err := sarif.Write(w, rs, sarif.WriteOptions{}); !errors.Is(err, errWrite) {
			t.Errorf("failing at write %d: %v", n, err)
		}
	}
}

var errWrite = errors.New("disk full")

type failingWriter struct{ after int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.after == 0 {
		return 0, errWrite
	}
	w.after--
	return len(p), nil
}
