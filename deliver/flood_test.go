package deliver

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/ghapi"
	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/review"
)

// The attacks of issue 11, case 6: the judged party decides how many
// findings there are and in which files, and so, unless the delivery is
// bounded, how many requests, comments and notifications a run makes.
// Each test counts what reaches the emulator (or, in a dry run, the log)
// against the documented ceiling (docs/github.md, "The ceiling").

// floodFindings is gate's findings, one per location.
func floodFindings(gate string, locs []string) []agc.Finding {
	fs := make([]agc.Finding, len(locs))
	for i, loc := range locs {
		fs[i] = finding(gate, fmt.Sprintf("F%d", i), loc, agc.Blocking)
	}
	return fs
}

// delivery sums up the emulator's requests since the last count.
func delivery(t *testing.T, srv *ghtest.Server) (writes, notifications int) {
	rc := count(srv)
	t.Logf("requests: %v", rc)
	return rc.writes, rc.notifications()
}

// TestFlood20RunsX50Files: 20 SARIF runs, each with one finding in each of
// the pull request's 50 files, off the lines it changes. Each used to be
// a file-level comment of its own: 1,000 comments, each a notification.
func TestFlood20RunsX50Files(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	const nFiles, nGates = 50, 20
	var fs []ghtest.File
	for i := range nFiles {
		base := lines(fmt.Sprintf("f%d", i), 200)
		head := strings.Replace(base, fmt.Sprintf("f%d_10 := compute(10)", i), fmt.Sprintf("f%d_10 := changed(10)", i), 1)
		fs = append(fs, ghtest.File{Path: fmt.Sprintf("pkg/f%02d.go", i), Base: base, Head: head})
	}
	srv.SetHead(testRepo, 7, headSHA, fs)
	var gates []agc.Doc
	for g := range nGates {
		var locs []string
		for i := range nFiles {
			locs = append(locs, fmt.Sprintf("pkg/f%02d.go:150", i))
		}
		gate := fmt.Sprintf("flood%02d", g)
		gates = append(gates, agc.Doc{Response: response(gate, agc.Block, floodFindings(gate, locs)...)})
	}
	c := newClient(t, srv, ghtest.TokenActions, &fakeSleep{})
	if _, err := Deliver(context.Background(), c, gates, Options{PR: 7, HeadSHA: headSHA, Review: true, Check: true, Status: true}); err != nil {
		t.Fatal(err)
	}
	writes, notes := delivery(t, srv)
	if ceiling := review.WriteCeiling(nGates, true); writes > ceiling {
		t.Errorf("%d writes for %d gates, over the documented ceiling of %d", writes, nGates, ceiling)
	}
	if notes > nGates {
		t.Errorf("%d notifications, want at most one per gate (%d)", notes, nGates)
	}
	// Nothing is dropped: every finding is listed once, in its gate's
	// review.
	got := delivered(srv, 7)
	for _, g := range gates {
		for _, f := range g.Response.Findings {
			if len(got[f.ID]) != 1 {
				t.Errorf("finding %s delivered %v, want once", f.ID, got[f.ID])
			}
		}
	}
}

// TestFlood25000Results: one SARIF run of 25,000 results (GitHub's limit
// for one run) on lines the pull request adds. It used to make 750
// writes: 250 reviews of 100 comments and 500 annotation updates.
func TestFlood25000Results(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	const nFiles, perFile = 50, 500
	var fs []ghtest.File
	var locs []string
	for i := range nFiles {
		p := fmt.Sprintf("pkg/f%02d.go", i)
		fs = append(fs, ghtest.File{Path: p, Head: lines(fmt.Sprintf("f%d", i), perFile)})
		for l := 1; l <= perFile; l++ {
			locs = append(locs, fmt.Sprintf("%s:%d", p, l))
		}
	}
	srv.SetHead(testRepo, 7, headSHA, fs)
	r := response("flood", agc.Block, floodFindings("flood", locs)...)
	c := newClient(t, srv, ghtest.TokenActions, &fakeSleep{})
	if _, err := Deliver(context.Background(), c, []agc.Doc{{Response: r}}, Options{PR: 7, HeadSHA: headSHA, Review: true, Check: true, Status: true}); err != nil {
		t.Fatal(err)
	}
	writes, notes := delivery(t, srv)
	if ceiling := review.WriteCeiling(1, true); writes > ceiling {
		t.Errorf("%d writes for one gate, over the documented ceiling of %d", writes, ceiling)
	}
	if notes > 1 {
		t.Errorf("%d notifications, want at most one", notes)
	}
	// Every finding is accounted for: inline, listed in the review body,
	// or counted there as being in the check run and the SARIF file.
	onPR := len(delivered(srv, 7))
	srv.Snapshot(func(prs map[string]*ghtest.PullRequest, runs []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		pr := prs[testRepo+"#7"]
		rest := fmt.Sprintf("%d are not in this review: the check run agc/flood", len(locs)-onPR)
		if len(pr.Reviews) != 1 || !strings.Contains(pr.Reviews[0].Body, rest) {
			t.Errorf("%d reviews; the review body should say %q", len(pr.Reviews), rest)
		}
		if len(runs) != 1 || !strings.Contains(runs[0].Summary, "Write ceiling") || len(runs[0].Annotations) > 50 {
			t.Errorf("the check run should say where the findings are, with at most 50 annotations")
		}
	})
}

// TestPreviewFlood20x25000: the Action's preview (a dry run without a
// token) of 20 runs of 25,000 results each printed 10,000 check-run
// requests, 757 MiB of log. The log is bounded by the ceiling.
func TestPreviewFlood20x25000(t *testing.T) {
	const nGates, nFindings, nFiles = 20, 25000, 50
	locs := make([]string, nFindings)
	for i := range locs {
		locs[i] = fmt.Sprintf("pkg/f%02d.go:%d", i%nFiles, 2+i/nFiles)
	}
	shared := floodFindings("flood", locs) // read only, shared by the gates
	var gates []agc.Doc
	for g := range nGates {
		r := response(fmt.Sprintf("flood%02d", g), agc.Block)
		r.Findings = shared
		gates = append(gates, agc.Doc{Response: r})
	}
	var log countingLog
	c, err := ghapi.NewFromEnv(func(string) string { return "" }, ghapi.Config{Owner: testOwner, Repo: testName}, &log)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Deliver(context.Background(), c, gates, Options{PR: 2, HeadSHA: headSHA, Review: true, Check: true}); err != nil {
		t.Fatal(err)
	}
	const reads = 3 // the pull request's files, comments and reviews
	t.Logf("dry run: %d requests, %d bytes of log", log.requests, log.bytes)
	if ceiling := review.WriteCeiling(nGates, false) + reads; log.requests > ceiling {
		t.Errorf("%d requests printed, over the ceiling of %d", log.requests, ceiling)
	}
	if log.bytes > 16<<20 {
		t.Errorf("%d bytes of log, want at most 16 MiB", log.bytes)
	}
}

// countingLog counts a dry run's printed requests and bytes, keeping
// nothing.
type countingLog struct{ requests, bytes int }

func (l *countingLog) Write(p []byte) (int, error) {
	l.bytes += len(p)
	l.requests += strings.Count(string(p), "--- dry-run request ")
	return len(p), nil
}
