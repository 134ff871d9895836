package sarif_test

import (
	"errors"
	"fmt"
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

// TestLimits: GitHub's limits are checked before writing, with an error
// naming the limit, the count and the place.
func TestLimits(t *testing.T) {
	tests := []struct {
		name  string
		resps []*agc.Response
		want  string
	}{
		{"results", []*agc.Response{manyFindings(sarif.MaxResultsPerRun + 1)}, "/runs/0/results: 25001 results in one run, GitHub accepts at most 25000"},
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
			rep, err := sarif.FromAGC(tt.resps, sarif.WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			err = sarif.CheckLimits(rep)
			var le *sarif.LimitError
			if !errors.As(err, &le) || err.Error() != tt.want {
				t.Errorf("CheckLimits = %v, want %q", err, tt.want)
			}
		})
	}
	ok, err := sarif.FromAGC([]*agc.Response{manyFindings(sarif.MaxResultsPerRun)}, sarif.WriteOptions{})
	if err != nil || sarif.CheckLimits(ok) != nil {
		t.Errorf("exactly the limit must pass: %v %v", err, sarif.CheckLimits(ok))
	}
}
