package review

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/google/go-github/v62/github"
)

// lineFindings are n findings of gate on lines 1..n of path.
func lineFindings(gate, path string, n int) []agc.Finding {
	var fs []agc.Finding
	for i := 1; i <= n; i++ {
		fs = append(fs, finding(gate, fmt.Sprintf("f%d", i), fmt.Sprintf("%s:%d", path, i), agc.Blocking))
	}
	return fs
}

func addedState(lines int) *PRState {
	var b strings.Builder
	for i := 1; i <= lines; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return &PRState{Number: 1, HeadSHA: "abc", Diffs: addedFile("a.go", b.String()), Threads: map[int64]Thread{}}
}

// The run's ceiling is shared by the gates in order: reviews, inline
// comments.
func TestPlanSharesTheRunsCeiling(t *testing.T) {
	st := addedState(100)
	b := NewBudget()
	for g := range MaxReviewsPerRun + 5 {
		gate := fmt.Sprintf("g%02d", g)
		p := PlanReview(st, response(gate, agc.Block, lineFindings(gate, "a.go", 60)...), PlanOptions{}, b)
		wantInline := 0
		if g < MaxInlinePerRun/MaxInlinePerGate {
			wantInline = MaxInlinePerGate
		}
		if p.Inline != wantInline || len(p.New) != wantInline || p.Capped != 60-wantInline {
			t.Errorf("gate %d: %d inline (%d new), %d capped; want %d inline", g, p.Inline, len(p.New), p.Capped, wantInline)
		}
		if wantReview := g < MaxReviewsPerRun; (p.Review == ReviewCreate) != wantReview || p.NoReview == wantReview {
			t.Errorf("gate %d: review %v, no review %v; want a review: %v", g, p.Review, p.NoReview, wantReview)
		}
		if p.NoReview && (p.Listed != 0 || p.Unlisted != 60) {
			t.Errorf("gate %d without a review: %d listed, %d unlisted; want every finding in the check run only", g, p.Listed, p.Unlisted)
		}
		if p.Inline+p.Listed+p.Unlisted != 60 {
			t.Errorf("gate %d: %d inline + %d listed + %d unlisted != 60 findings", g, p.Inline, p.Listed, p.Unlisted)
		}
	}
}

// ownComment is a comment an earlier run of gate wrote for finding id,
// with an open thread.
func ownComment(st *PRState, gate, id, hash string, n int64) {
	body := withMarkers([]string{FormatMarker(MarkFinding, "gate", gate, "id", id, "hash", hash)}, "old text")
	st.Comments = append(st.Comments, &github.PullRequestComment{ID: github.Int64(n), Body: github.String(body)})
	st.Threads[n] = Thread{ID: fmt.Sprintf("T%d", n), CommentIDs: []int64{n}}
}

// A rerun's edits and thread resolutions are bounded too; the rest wait
// for later runs, and the body says so.
func TestPlanBoundsEditsAndThreads(t *testing.T) {
	st := addedState(100)
	n := int64(1)
	for _, gate := range []string{"a", "b", "c"} {
		for i := 1; i <= 30; i++ { // changed since: an edit each
			ownComment(st, gate, fmt.Sprintf("%s/f%d", gate, i), "stale", n)
			n++
		}
		for i := 0; i < 60; i++ { // gone: a resolution each
			ownComment(st, gate, fmt.Sprintf("%s/gone%d", gate, i), "x", n)
			n++
		}
	}
	b := NewBudget()
	var edits, threads, deferred int
	for _, gate := range []string{"a", "b", "c"} {
		p := PlanReview(st, response(gate, agc.Block, lineFindings(gate, "a.go", 30)...), PlanOptions{}, b)
		edits += len(p.Edits)
		threads += len(p.Resolve) + len(p.Reopen)
		deferred += p.DeferredEdits + p.DeferredThreads
		if len(p.Edits) > MaxEditsPerGate {
			t.Errorf("gate %s: %d edits, over %d a gate", gate, len(p.Edits), MaxEditsPerGate)
		}
		if p.DeferredEdits > 0 && !strings.Contains(p.Body, fmt.Sprintf("%d inline comments show an earlier text", p.DeferredEdits)) {
			t.Errorf("gate %s: the body does not say that %d comments wait for their edit:\n%s", gate, p.DeferredEdits, p.Body)
		}
	}
	if edits != MaxEditsPerRun || threads != MaxThreadRequestsPerRun*ThreadsPerRequest {
		t.Errorf("%d edits and %d threads, want the run's %d and %d", edits, threads, MaxEditsPerRun, MaxThreadRequestsPerRun*ThreadsPerRequest)
	}
	if want := 3*30 - MaxEditsPerRun + 3*60 - MaxThreadRequestsPerRun*ThreadsPerRequest; deferred != want {
		t.Errorf("%d deferred, want %d", deferred, want)
	}
}

// A rerun on the same state plans the same thing: the inline comments it
// keeps are the ones already there, so nothing new is posted.
func TestPlanIsStableOnRerun(t *testing.T) {
	st := addedState(100)
	r := response("g", agc.Block, lineFindings("g", "a.go", 80)...)
	first := PlanReview(st, r, PlanOptions{}, NewBudget())
	for i, d := range first.New {
		st.Comments = append(st.Comments, &github.PullRequestComment{ID: github.Int64(int64(i + 1)), Body: d.Body})
	}
	st.Reviews = []*github.PullRequestReview{{ID: github.Int64(99), Body: github.String(first.Body)}}
	again := PlanReview(st, r, PlanOptions{}, NewBudget())
	if len(again.New) != 0 || len(again.Edits) != 0 || again.Review != ReviewNone || again.Unchanged != MaxInlinePerGate {
		t.Errorf("rerun: %d new, %d edits, review %v, %d unchanged; want nothing written", len(again.New), len(again.Edits), again.Review, again.Unchanged)
	}
}

// TestByFile: a table lists a file's findings by line (the whole-file
// ones first), files in the order they first occur, then the findings
// outside them; inline and check-only findings are not listed.
func TestByFile(t *testing.T) {
	at := func(id, path string, line int, ch Channel) Placed {
		return Placed{Finding: &agc.Finding{ID: id}, Pos: Position{Path: path, Start: line, End: line}, Channel: ch}
	}
	got := byFile([]Placed{
		at("b9", "b.go", 9, ChannelFile), at("a7", "a.go", 7, ChannelFile), at("out", "", 0, ChannelBody),
		at("b2", "b.go", 2, ChannelFile), at("inline", "b.go", 5, ChannelInline), at("bfile", "b.go", 0, ChannelFile),
		at("a7bis", "a.go", 7, ChannelFile), at("check", "c.go", 1, ChannelCheck), at("a1", "a.go", 1, ChannelFile),
	})
	var ids []string
	for _, p := range got {
		ids = append(ids, p.Finding.ID)
	}
	if want := "bfile b2 b9 a1 a7 a7bis out"; strings.Join(ids, " ") != want {
		t.Errorf("order %q, want %q", strings.Join(ids, " "), want)
	}
}
