package deliver

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/review"
)

// The scenario: 300 findings over 20 files. In each file 10 findings carry
// a patch remedy on a changed line (inline, with a suggestion, up to the
// ceiling's 50) and 5 point at the file only (listed in the review body
// under the file). Four runs: first, rerun, rerun after every file shifted
// by 20 lines, rerun after half the findings are fixed.
const (
	scFiles       = 20
	scInline      = 10
	scFileLevel   = 5
	scLinesInFile = 200
)

func scBase(i int) string { return lines(fmt.Sprintf("f%d", i), scLinesInFile) }

// scHead changes every 15th line of the base; shift prepends 20 lines.
func scHead(i int, shift bool) string {
	ls := strings.SplitAfter(scBase(i), "\n")
	for k := 0; k < scInline; k++ {
		n := 10 + 15*k
		ls[n] = fmt.Sprintf("\tf%d_%d := changed(%d)\n", i, n+1, n+1)
	}
	head := strings.Join(ls, "")
	if shift {
		head = lines(fmt.Sprintf("new%d", i), 20) + head
	}
	return head
}

func scPush(srv *ghtest.Server, sha string, shift bool) files {
	var fs []ghtest.File
	head := files{}
	for i := 0; i < scFiles; i++ {
		p := fmt.Sprintf("pkg/f%02d.go", i)
		fs = append(fs, ghtest.File{Path: p, Base: scBase(i), Head: scHead(i, shift)})
		head[p] = scHead(i, shift)
	}
	srv.SetHead(testRepo, 7, sha, fs)
	return head
}

// scFindings returns the findings; keep filters them (half fixed).
func scFindings(keep func(n int) bool) []agc.Finding {
	var out []agc.Finding
	n := 0
	for i := 0; i < scFiles; i++ {
		p := fmt.Sprintf("pkg/f%02d.go", i)
		for k := 0; k < scInline; k++ {
			line := 10 + 15*k + 1
			f := patchFinding("scan", fmt.Sprintf("%s/call%d", p, k), p, fmt.Sprintf("changed(%d)", line), fmt.Sprintf("compute(%d)", line))
			f.Location = fmt.Sprintf("%s#call%d", p, k)
			if keep(n) {
				out = append(out, f)
			}
			n++
		}
		for k := 0; k < scFileLevel; k++ {
			f := finding("scan", fmt.Sprintf("%s/doc%d", p, k), p+"#package", agc.Advisory)
			if keep(n) {
				out = append(out, f)
			}
			n++
		}
	}
	return out
}

type runCounts struct {
	reads, writes int
	byOp          map[string]int
}

func count(srv *ghtest.Server) runCounts {
	rc := runCounts{byOp: srv.Counts()}
	for op, n := range rc.byOp {
		switch {
		case strings.HasPrefix(op, "graphql/AgcReviewThreads"), strings.Contains(op, "/list-"), strings.Contains(op, "/get-"), strings.HasSuffix(op, "/get"):
			rc.reads += n
		default:
			rc.writes += n
		}
	}
	srv.ResetCounts()
	return rc
}

func (rc runCounts) String() string {
	var ops []string
	for op, n := range rc.byOp {
		ops = append(ops, fmt.Sprintf("%s=%d", op, n))
	}
	sort.Strings(ops)
	return fmt.Sprintf("%d reads, %d writes (%s)", rc.reads, rc.writes, strings.Join(ops, " "))
}

// notifications counts what notifies the pull request's participants: a
// review notifies once, a stand-alone comment once each.
func (rc runCounts) notifications() int {
	return rc.byOp["pulls/create-review"] + rc.byOp["pulls/create-review-comment"]
}

func TestScenario300Findings(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	c := newClient(t, srv, ghtest.TokenActions, &fakeSleep{})
	ctx := context.Background()
	run := func(name string, head files, sha string, fs []agc.Finding) (*ReviewResult, runCounts) {
		t.Helper()
		gates := []agc.Doc{{Response: response("scan", agc.Block, fs...)}}
		rep, err := Deliver(ctx, c, gates, Options{PR: 7, HeadSHA: sha, Review: true, Check: true, Status: true,
			Plan: review.PlanOptions{Head: head}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		rc := count(srv)
		res := rep.Reviews["scan"]
		t.Logf("%-26s findings=%d reviews=%d posted=%d edited=%d unchanged=%d resolved=%d inline=%d listed=%d notifications=%d; requests: %v",
			name, len(fs), res.Reviews, res.Posted, res.Edited, res.Unchanged, res.Resolved, res.Inline, res.Listed, rc.notifications(), rc)
		if ceiling := review.WriteCeiling(1, true); rc.writes > ceiling {
			t.Errorf("%s: %d writes, over the ceiling of %d", name, rc.writes, ceiling)
		}
		if rc.notifications() > 1 {
			t.Errorf("%s: %d notifications, want at most one per gate", name, rc.notifications())
		}
		return res, rc
	}
	all := func(int) bool { return true }

	head := scPush(srv, headSHA, false)
	res, rc := run("first run", head, headSHA, scFindings(all))
	channels := map[review.Channel]int{}
	capped := 0
	for _, p := range res.Placed {
		channels[p.Channel]++
		if p.Capped {
			capped++
		}
	}
	// 200 findings could be inline: the first 50 are, the other 150 are
	// listed in the review body with the 100 file-level ones.
	if len(res.Placed) != 300 || channels[review.ChannelInline] != 50 || channels[review.ChannelFile] != 250 || capped != 150 {
		t.Fatalf("placement %v (%d capped) over %d findings, want 50 inline and 250 file-level, 150 of them capped", channels, capped, len(res.Placed))
	}
	for id, chs := range delivered(srv, 7) {
		if len(chs) != 1 {
			t.Errorf("finding %s delivered %d times: %v", id, len(chs), chs)
		}
	}
	if n := len(delivered(srv, 7)); n != 300 {
		t.Errorf("%d findings delivered, want 300", n)
	}
	if res.Posted != 50 || res.Reviews != 1 || res.Listed != 250 || res.Unlisted != 0 {
		t.Errorf("first run posted %d comments in %d reviews and listed %d (%d not listed), want 50 in 1 and 250 listed", res.Posted, res.Reviews, res.Listed, res.Unlisted)
	}
	// Writes: 1 review, 1 check run (its 50 annotations in it), 1 status.
	if rc.writes != 3 || rc.notifications() != 1 {
		t.Errorf("first run made %d writes and %d notifications, want 3 and 1", rc.writes, rc.notifications())
	}

	res, rc = run("rerun", head, headSHA, scFindings(all))
	if res.Posted != 0 || res.Edited != 0 || res.Resolved != 0 || res.Unchanged != 50 {
		t.Errorf("rerun: %+v, want nothing posted, edited or resolved", res)
	}
	if got := rc.byOp["pulls/create-review"] + rc.byOp["pulls/create-review-comment"] + rc.byOp["pulls/update-review-comment"] + rc.byOp["pulls/update-review"]; got != 0 {
		t.Errorf("rerun wrote %d comments or reviews", got)
	}

	head = scPush(srv, headSHA2, true)
	res, rc = run("rerun after 20-line shift", head, headSHA2, scFindings(all))
	if res.Posted != 0 || res.Edited != 0 || res.Resolved != 0 {
		t.Errorf("shift: %+v, want nothing posted, edited or resolved", res)
	}
	if got := rc.byOp["pulls/create-review"] + rc.byOp["pulls/create-review-comment"] + rc.byOp["pulls/update-review"]; got != 0 {
		t.Errorf("shift wrote %d comments or reviews", got)
	}

	half := func(n int) bool { return n%2 == 0 }
	res, rc = run("rerun after half fixed", head, headSHA2, scFindings(half))
	// 25 of the 50 inline findings are fixed: their threads are resolved,
	// and 25 of the listed ones take their places, in one new review.
	if res.Posted != 25 || res.Resolved != 25 || res.Unchanged != 25 || res.Reviews != 1 || res.Listed != 100 {
		t.Errorf("half fixed: %+v, want 25 posted in 1 review, 25 resolved, 25 unchanged, 100 listed", res)
	}
	if rc.byOp["graphql/AgcResolveThreads"] != 1 || rc.writes != 4 {
		t.Errorf("half fixed: %d writes, resolving 25 threads took %d requests; want 4 writes and 1 request", rc.writes, rc.byOp["graphql/AgcResolveThreads"])
	}
	srv.Snapshot(func(prs map[string]*ghtest.PullRequest, _ []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		pr := prs[testRepo+"#7"]
		resolved, outdated := 0, 0
		for _, th := range pr.Threads {
			if th.Resolved {
				resolved++
			}
			if th.Outdated {
				outdated++
			}
		}
		if resolved != 25 || outdated != 0 || len(pr.Comments) != 75 || len(pr.Reviews) != 2 {
			t.Errorf("threads: %d resolved, %d outdated, %d comments, %d reviews; want 25, 0, 75, 2", resolved, outdated, len(pr.Comments), len(pr.Reviews))
		}
	})
}
