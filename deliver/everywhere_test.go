package deliver

import (
	"context"
	"crypto/sha256"
	"fmt"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/ghapi"
	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/review"
)

// issue24PR is issue 24's pull request: 5,000 changed files, one gate
// with a finding on the added line of 2,000 of them (every file whose
// index is 0 or 1 modulo 5, 800 past the 3,000 GitHub lists), each with a
// why of a linter's length, so the response (about 1.3 MB) is too large
// to embed in a check run. what, when set, is every finding's message.
func issue24PR(srv *ghtest.Server, what string) agc.Doc {
	fs := make([]ghtest.File, 0, bigFiles)
	var findings []agc.Finding
	why := strings.Repeat("The rule explains at length why this construct is a problem and what to write instead. ", 2)
	for i := range bigFiles {
		p := fmt.Sprintf("svc/m%04d/handler.go", i)
		fs = append(fs, ghtest.File{Path: p, Base: "package m\n\nfunc H() {}\n", Head: "package m\n\nfunc H() {}\n\nvar added = 1\n"})
		if i%5 < 2 {
			f := finding("lint", fmt.Sprintf("f%04d", i), p+":5", agc.Advisory)
			sum := sha256.Sum256([]byte(p)) // text gzip cannot fold away
			f.Why = fmt.Sprintf("Rule f%04d: %s(trace %x%x)", i, why, sum, sha256.Sum256(sum[:]))
			if what != "" {
				f.What = what
			}
			findings = append(findings, f)
		}
	}
	srv.SetHead(testRepo, 2, headSHA, fs)
	r := response("lint", agc.Block, findings...)
	raw, err := agc.Encode(r)
	if err != nil {
		panic(err)
	}
	return agc.Doc{Response: r, Raw: raw}
}

// leftOutRE is how a check run states the findings it does not list.
var leftOutRE = regexp.MustCompile(`(\d+) findings? (?:is|are) not listed in this check run`)

// TestBigPullRequestEveryFindingOnGitHub (issue 24): on a 5,000-file pull
// request with 2,000 findings of one gate, every finding is in a place a
// person reads on GitHub (an inline comment, the review body, the check
// run's summary or text), or the check run states exactly how many it
// leaves out and where they are, and the numbers add up to 2,000. The
// check run lists the findings the review lacks before any it repeats,
// and no text claims an embedded response that is not there.
func TestBigPullRequestEveryFindingOnGitHub(t *testing.T) {
	const sarifPath = "/home/runner/work/_temp/agc-1/agc.sarif"
	for _, tc := range []struct {
		name    string
		what    string // "": short messages
		sarif   review.SARIFPlace
		leftOut bool // some findings do not fit in the check run
	}{
		{name: "issue 24"},
		{name: "issue 24, SARIF file", sarif: review.SARIFPlace{Path: sarifPath}},
		{name: "long messages", what: strings.Repeat("A message of a linter's usual length, and then some. ", 3),
			sarif: review.SARIFPlace{Path: sarifPath}, leftOut: true},
		{name: "long messages, uploaded", what: strings.Repeat("A message of a linter's usual length, and then some. ", 3),
			sarif: review.SARIFPlace{Path: sarifPath, Uploaded: true}, leftOut: true},
	} {
		t.Run(tc.name, func(t *testing.T) { everyFindingOnGitHub(t, tc.what, tc.sarif, tc.leftOut) })
	}
}

func everyFindingOnGitHub(t *testing.T, what string, sarif review.SARIFPlace, wantLeftOut bool) {
	srv := ghtest.New(t, ghtest.Options{})
	doc := issue24PR(srv, what)
	c, err := ghapi.New(ghapi.Config{Owner: testOwner, Repo: testName, Token: ghtest.TokenActions, BaseURL: srv.URL(), GraphQLURL: srv.GraphQLURL()})
	if err != nil {
		t.Fatal(err)
	}
	links := review.Links{Server: "https://github.com", Repo: testRepo, SHA: headSHA}
	if _, err := Deliver(context.Background(), c, []agc.Doc{doc}, Options{PR: 2, HeadSHA: headSHA, Review: true, Check: true,
		Plan: review.PlanOptions{Mode: review.FilterAdded, Links: links}, Diffs: &patchSource{srv: srv}, SARIF: sarif}); err != nil {
		t.Fatal(err)
	}
	where := delivered(srv, 2) // finding id -> inline / body
	var summary, text string
	srv.Snapshot(func(_ map[string]*ghtest.PullRequest, runs []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		for _, run := range runs {
			if run.Name == "agc/lint" {
				summary, text = run.Summary, run.Text
			}
		}
	})
	if summary == "" {
		t.Fatal("no check run agc/lint")
	}
	var inline, listed, inCheck, repeated, missing int
	for _, f := range doc.Response.Findings {
		shown := len(where[f.ID]) > 0
		switch {
		case slicesContains(where[f.ID], "inline"):
			inline++
		case slicesContains(where[f.ID], "body"):
			listed++
		}
		// A check run's line names the finding's place as a code span.
		loc := "`" + f.Location + "`"
		inRun := strings.Contains(summary, loc) || strings.Contains(text, loc)
		switch {
		case inRun && shown:
			repeated++
		case inRun:
			inCheck++
		case !shown:
			missing++
		}
	}
	leftOut := -1
	if m := leftOutRE.FindStringSubmatch(summary + "\n" + text); m != nil {
		leftOut, _ = strconv.Atoi(m[1])
	}
	t.Logf("%d inline, %d listed in the review body, %d only in the check run (%d repeated there), %d stated left out, %d not found; summary %d and text %d characters",
		inline, listed, inCheck, repeated, leftOut, missing, len([]rune(summary)), len([]rune(text)))
	switch {
	case missing > 0 && leftOut != missing:
		t.Errorf("%d findings are nowhere on GitHub, and the check run states %d left out (-1: states none)", missing, leftOut)
	case missing == 0 && leftOut > 0:
		t.Errorf("every finding is on GitHub, yet the check run states %d left out", leftOut)
	}
	if got := inline + listed + inCheck + missing; got != bigFindings {
		t.Errorf("%d inline + %d listed + %d in the check run + %d left out = %d, want %d", inline, listed, inCheck, missing, got, bigFindings)
	}
	if missing > 0 && repeated > 0 {
		t.Errorf("the check run repeats %d findings the review shows while it leaves %d unshown ones out", repeated, missing)
	}
	if (missing > 0) != wantLeftOut {
		t.Errorf("%d findings left out, want some: %v", missing, wantLeftOut)
	}
	if sarif.Path != "" && missing > 0 && !strings.Contains(summary, "`sarif-file` output (`"+sarif.Path+"` on the runner") {
		t.Errorf("the check run does not say the findings it leaves out are in the Action's sarif-file output")
	}
	if strings.Contains(strings.ToLower(summary+text), "code scanning") != sarif.Uploaded {
		t.Errorf("the check run names code scanning: %v, want %v (uploaded)", !sarif.Uploaded, sarif.Uploaded)
	}
	if !review.Embedded(text) && strings.Contains(summary+text, "response embedded in this check run") {
		t.Errorf("the check run claims an embedded response, but none is embedded")
	}
}

func slicesContains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// TestIssue24Response: the scenario's response is as large as the issue's
// (about 1.3 MB) and too large to embed.
func TestIssue24Response(t *testing.T) {
	doc := issue24PR(ghtest.New(t, ghtest.Options{}), "")
	if n := len(doc.Raw); n < 1200<<10 || n > 1500<<10 {
		t.Errorf("the response is %d bytes, want about 1.3 MB", n)
	}
	if review.Embedded(review.EmbedResponse(doc.Raw)) {
		t.Errorf("the response (%d bytes) embeds; the scenario wants one too large to", len(doc.Raw))
	}
}

// BenchmarkIssue24 delivers issue 24's pull request once against the
// emulator in this process (the emulator's work is in the figures): the
// time, and the heap at its peak.
//
//	go test ./ghapi -run '^$' -bench Issue24 -benchtime 3x -benchmem
func BenchmarkIssue24(b *testing.B) {
	var peak uint64
	for b.Loop() {
		b.StopTimer()
		srv := ghtest.New(b, ghtest.Options{})
		doc := issue24PR(srv, "")
		c, err := ghapi.New(ghapi.Config{Owner: testOwner, Repo: testName, Token: ghtest.TokenActions, BaseURL: srv.URL(), GraphQLURL: srv.GraphQLURL()})
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		stop := sampleHeap(&peak)
		b.StartTimer()
		_, err = Deliver(context.Background(), c, []agc.Doc{doc}, Options{PR: 2, HeadSHA: headSHA, Review: true, Check: true,
			Plan:  review.PlanOptions{Mode: review.FilterAdded, Links: review.Links{Server: "https://github.com", Repo: testRepo, SHA: headSHA}},
			Diffs: &patchSource{srv: srv}, SARIF: review.SARIFPlace{Path: "/tmp/agc.sarif"}})
		b.StopTimer()
		stop()
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
}
