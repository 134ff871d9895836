package deliver

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/ghapi"
	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/review"
)

// The scale of issue 18: a pull request of 5,000 changed files with
// findings in 2,000 of them, from four gates of 500 findings each.
const (
	bigFiles    = 5000
	bigFindings = 2000
	bigGates    = 4
)

// bigPR pushes the 5,000 files and returns the gates' answers: a finding
// on the added line of every file whose index is 0 or 1 modulo 5, so 800
// of them lie past the 3,000 files GitHub lists.
func bigPR(srv *ghtest.Server) []agc.Doc {
	fs := make([]ghtest.File, 0, bigFiles)
	var findings [bigGates][]agc.Finding
	n := 0
	for i := range bigFiles {
		p := fmt.Sprintf("svc/m%04d/handler.go", i)
		fs = append(fs, ghtest.File{Path: p, Base: "package m\n\nfunc H() {}\n", Head: "package m\n\nfunc H() {}\n\nvar added = 1\n"})
		if i%5 < 2 {
			g := fmt.Sprintf("scan%d", n%bigGates)
			findings[n%bigGates] = append(findings[n%bigGates], finding(g, fmt.Sprintf("f%04d", i), p+":5", agc.Blocking))
			n++
		}
	}
	srv.SetHead(testRepo, 2, headSHA, fs)
	docs := make([]agc.Doc, bigGates)
	for k := range docs {
		docs[k] = agc.Doc{Response: response(fmt.Sprintf("scan%d", k), agc.Block, findings[k]...)}
	}
	return docs
}

// runBig delivers the big pull request's answers once.
func runBig(t testing.TB, srv *ghtest.Server, docs []agc.Doc) *Report {
	c, err := ghapi.New(ghapi.Config{Owner: testOwner, Repo: testName, Token: ghtest.TokenActions, BaseURL: srv.URL(), GraphQLURL: srv.GraphQLURL()})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Deliver(context.Background(), c, docs, Options{PR: 2, HeadSHA: headSHA, Review: true, Check: true,
		Plan: review.PlanOptions{Mode: review.FilterAdded}, Diffs: &patchSource{srv: srv}})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestBigPullRequest: every one of the 2,000 findings is delivered
// somewhere (inline, listed in its review, or in its check run), the
// ones past GitHub's 3,000 files too, and the run writes within the
// ceiling.
func TestBigPullRequest(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	docs := bigPR(srv)
	rep := runBig(t, srv, docs)
	total, inline := 0, 0
	for _, d := range docs {
		res := rep.Reviews[d.Response.Gate.ID]
		if got := res.Inline + res.Listed + res.Unlisted; got != len(d.Response.Findings) {
			t.Errorf("%s: %d inline + %d listed + %d in the check run only, want %d", d.Response.Gate.ID, res.Inline, res.Listed, res.Unlisted, len(d.Response.Findings))
		}
		total += len(d.Response.Findings)
		inline += res.Inline
		for _, p := range res.Placed {
			if p.Channel == review.ChannelBody {
				t.Errorf("%s: %s is in the pull request but placed outside its files", d.Response.Gate.ID, p.Finding.ID)
				break
			}
		}
	}
	if total != bigFindings || inline != review.MaxInlinePerRun {
		t.Errorf("%d findings, %d inline; want %d and %d", total, inline, bigFindings, review.MaxInlinePerRun)
	}
	if w, ceiling := srv.Writes(), review.WriteCeiling(bigGates, false); w > ceiling {
		t.Errorf("%d writes, over the ceiling of %d", w, ceiling)
	}
	t.Logf("requests by operation: %v; writes %d", srv.Counts(), srv.Writes())
	if rep.Checks != bigGates {
		t.Errorf("%d check runs, want %d", rep.Checks, bigGates)
	}
}

// BenchmarkBigPullRequest measures one run on the big pull request
// against the emulator in this process (the emulator's own work is in
// the figures): requests, comments, reviews, and the heap at its peak.
func BenchmarkBigPullRequest(b *testing.B) {
	var peak uint64
	for b.Loop() {
		b.StopTimer()
		srv := ghtest.New(b, ghtest.Options{})
		docs := bigPR(srv)
		runtime.GC()
		stop := sampleHeap(&peak)
		b.StartTimer()
		runBig(b, srv, docs)
		b.StopTimer()
		stop()
		reqs := 0
		for _, n := range srv.Counts() {
			reqs += n
		}
		comments, reviews := 0, 0
		srv.Snapshot(func(prs map[string]*ghtest.PullRequest, _ []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
			comments, reviews = len(prs[testRepo+"#2"].Comments), len(prs[testRepo+"#2"].Reviews)
		})
		b.ReportMetric(float64(reqs), "requests/op")
		b.ReportMetric(float64(srv.Writes()), "writes/op")
		b.ReportMetric(float64(comments), "comments/op")
		b.ReportMetric(float64(reviews), "reviews/op")
		b.StartTimer()
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
}

// sampleHeap records the largest heap in use until stop is called.
func sampleHeap(peak *uint64) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		var ms runtime.MemStats
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&ms)
			*peak = max(*peak, ms.HeapInuse)
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(done); <-finished }
}
