package peertest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/review"
)

const calcBase = "package app\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n"

// calcDebug adds a debug print as line 4.
var calcDebug = []ghtest.File{{Path: "app/calc.go", Base: calcBase,
	Head: "package app\n\nfunc Add(a, b int) int {\n\tprintln(\"debug\")\n\treturn a + b\n}\n"}}

// debugFinding is on line 4 of calcDebug; line is where it is now.
func debugFinding(line int, fixes ...fix) result {
	return result{rule: "no-debug-print", message: "Remove the debug print.", path: "app/calc.go",
		at: region{StartLine: line}, fixes: fixes}
}

// Claim 1: a fix that only deletes (no insertedContent, SARIF §3.57.3).
func TestDeletionOnlyFix(t *testing.T) {
	// Lines 4:1 to 5:1: line 4 and its newline.
	log := sarifLog(t, debugFinding(4, fix{deleted: region{StartLine: 4, StartColumn: 1, EndLine: 5, EndColumn: 1}}))

	rd := newPR(t, calcDebug)
	run := rd.reviewdog(log)
	if run.code != 2 || !strings.Contains(run.stderr, "panic: runtime error: invalid memory address or nil pointer dereference") ||
		!strings.Contains(run.stderr, "parser.(*SarifParser).Parse") {
		t.Errorf("reviewdog: want a nil-pointer panic in its SARIF parser (exit 2), got %v", run)
	}
	if log := rd.srv.Log(); len(log) != 0 {
		t.Errorf("reviewdog reached GitHub before crashing: %q", log)
	}
	if st := rd.state(); len(st.comments)+len(st.reviews) != 0 {
		t.Errorf("reviewdog left %d comments, %d reviews", len(st.comments), len(st.reviews))
	}

	us := newPR(t, calcDebug)
	if _, _, err := us.ours(log); err != nil {
		t.Fatalf("ours: %v", err)
	}
	cs := us.state().lineComments("app/calc.go")
	if len(cs) != 1 || cs[0].Line != 4 || cs[0].StartLine != 0 {
		t.Fatalf("ours: want one comment on line 4, got %+v", cs)
	}
	content, closed, found := suggestion(cs[0].Body)
	if !found || !closed || content != "" {
		t.Errorf("ours: want an empty ```suggestion (delete line 4), got %q closed=%v found=%v in\n%s", content, closed, found, cs[0].Body)
	}
}

// calcLong is a 30-line file whose line 25 changes: its one hunk is lines
// 22-28, so line 3 is in the pull request's file but outside the diff.
func calcLong() []ghtest.File {
	var base, head strings.Builder
	base.WriteString("package app\n\n")
	for i := 3; i <= 30; i++ {
		fmt.Fprintf(&base, "var v%d = %d\n", i, i)
	}
	head.WriteString(strings.Replace(base.String(), "var v25 = 25\n", "var v25 = 2500\n", 1))
	return []ghtest.File{{Path: "app/calc.go", Base: base.String(), Head: head.String()}}
}

// Claim 2: findings outside the diff, with reviewdog's default -filter-mode.
func TestFindingsOutsideDiff(t *testing.T) {
	log := sarifLog(t,
		result{rule: "magic-number", message: "Name the constant v25", path: "app/calc.go", at: region{StartLine: 25}},
		result{rule: "unused", message: "v3 is never used", path: "app/calc.go", at: region{StartLine: 3}},
		result{rule: "unused", message: "Old is never used", path: "app/old.go", at: region{StartLine: 1}},
	)
	outside := []string{"v3 is never used", "Old is never used"}

	rd := newPR(t, calcLong())
	run := rd.reviewdog(log)
	st := rd.state()
	if run.code != 0 || st.mentions("Name the constant v25") != 1 {
		t.Fatalf("reviewdog did not post the finding on the changed line (the control): %v\nstate %+v", run, st)
	}
	for _, m := range outside {
		if n := st.mentions(m); n != 0 || strings.Contains(run.stdout+run.stderr, m) {
			t.Errorf("reviewdog reported %q (%d comments): want it unreported by default", m, n)
		}
	}
	if len(st.comments) != 1 || len(st.reviews) != 1 {
		t.Errorf("reviewdog: %d comments, %d reviews; want the control only", len(st.comments), len(st.reviews))
	}
	// Not a setup artefact: told -filter-mode=nofilter, reviewdog does
	// report the finding in the changed file (as a file comment).
	rdAll := newPR(t, calcLong())
	if run := rdAll.reviewdog(log, "-filter-mode=nofilter"); run.code != 0 || rdAll.state().mentions("v3 is never used") != 1 {
		t.Errorf("reviewdog -filter-mode=nofilter did not post the finding outside the diff: %v", run)
	} else {
		t.Logf("reviewdog -filter-mode=nofilter stdout: %q", run.stdout)
	}

	us := newPR(t, calcLong())
	rep, _, err := us.ours(log)
	if err != nil {
		t.Fatalf("ours: %v", err)
	}
	st = us.state()
	for _, m := range append(outside, "Name the constant v25") {
		if n := st.mentions(m); n != 1 {
			t.Errorf("ours: %q is in %d comments or review bodies, want 1", m, n)
		}
	}
	channels := map[string]review.Channel{}
	for _, p := range rep.Reviews["peerlint"].Placed {
		channels[p.Finding.What] = p.Channel
	}
	want := map[string]review.Channel{"Name the constant v25": review.ChannelInline, "v3 is never used": review.ChannelFile, "Old is never used": review.ChannelBody}
	for m, ch := range want {
		if channels[m] != ch {
			t.Errorf("ours: %q went to %v, want %v", m, channels[m], ch)
		}
	}
}

// shifted prepends five added lines to calcDebug's head: the debug print
// moves from line 4 to line 9, its text unchanged.
var shifted = []ghtest.File{{Path: "app/calc.go", Base: calcBase,
	Head: "package app\n\n// Five\n// new\n// lines\n// of\n// doc.\nfunc Add(a, b int) int {\n\tprintln(\"debug\")\n\treturn a + b\n}\n"}}

// Claim 3: a rerun after the finding's line moved.
func TestLineShift(t *testing.T) {
	before, after := sarifLog(t, debugFinding(4)), sarifLog(t, debugFinding(9))
	octocat := ghtest.Identity{Login: "octocat", ID: 583231, Type: "User"}
	for _, reply := range []bool{false, true} {
		t.Run(fmt.Sprintf("reply=%v", reply), func(t *testing.T) {
			rd := newPR(t, calcDebug)
			if run := rd.reviewdog(before); run.code != 0 {
				t.Fatalf("reviewdog first run: %v", run)
			}
			first := rd.state().lineComments("app/calc.go")
			if len(first) != 1 {
				t.Fatalf("reviewdog first run: %d comments, want 1", len(first))
			}
			if reply {
				if _, err := rd.front.Reply(rd.ev.Repo, rd.ev.Number, first[0].ID, octocat, "Is this print needed?"); err != nil {
					t.Fatal(err)
				}
			}
			rd.push(headSHA2, shifted)
			rd.srv.ResetCounts()
			if run := rd.reviewdog(after); run.code != 0 {
				t.Fatalf("reviewdog rerun: %v", run)
			}
			counts := rd.srv.Counts()
			st := rd.state()
			bots := botComments(st, "app/calc.go")
			if counts["pulls/create-review"] != 1 || len(bots) != 1 && !reply || len(bots) != 2 && reply {
				t.Errorf("reviewdog rerun: want the finding posted again, got %d reviews created, bot comments %+v", counts["pulls/create-review"], bots)
			}
			if !reply && (counts["pulls/delete-review-comment"] != 1 || bots[0].ID == first[0].ID) {
				t.Errorf("reviewdog rerun: want comment %d deleted and replaced, got %d deletes, comments %+v", first[0].ID, counts["pulls/delete-review-comment"], bots)
			}
			if reply && (counts["pulls/delete-review-comment"] != 0 || len(st.threads) != 2) {
				t.Errorf("reviewdog rerun: want the answered comment kept beside a new thread, got %d deletes, %d threads", counts["pulls/delete-review-comment"], len(st.threads))
			}

			us := newPR(t, calcDebug)
			if _, _, err := us.ours(before); err != nil {
				t.Fatalf("ours first run: %v", err)
			}
			mine := us.state().lineComments("app/calc.go")
			if len(mine) != 1 {
				t.Fatalf("ours first run: %d comments, want 1", len(mine))
			}
			if reply {
				if _, err := us.front.Reply(us.ev.Repo, us.ev.Number, mine[0].ID, octocat, "Is this print needed?"); err != nil {
					t.Fatal(err)
				}
			}
			us.push(headSHA2, shifted)
			us.srv.ResetCounts()
			rep, _, err := us.ours(after)
			if err != nil {
				t.Fatalf("ours rerun: %v", err)
			}
			res, counts := rep.Reviews["peerlint"], us.srv.Counts()
			bots = botComments(us.state(), "app/calc.go")
			if res.Posted != 0 || counts["pulls/create-review"]+counts["pulls/create-review-comment"] != 0 ||
				len(bots) != 1 || bots[0].ID != mine[0].ID || bots[0].Line != 9 || len(us.state().threads) != 1 {
				t.Errorf("ours rerun: want nothing posted and comment %d kept on line 9, got %+v, requests %v, comments %+v", mine[0].ID, res, counts, bots)
			}
		})
	}
}

// botComments are the Actions bot's line comments on path.
func botComments(st state, path string) []ghtest.Comment {
	var out []ghtest.Comment
	for _, c := range st.lineComments(path) {
		if c.User.Login == ghtest.ActionsBot.Login {
			out = append(out, c)
		}
	}
	return out
}

// Claim 4: a transient 502 from GitHub on the review.
func TestRetryOn502(t *testing.T) {
	log := sarifLog(t, debugFinding(4))

	rd := newPR(t, calcDebug)
	rd.srv.Inject("pulls/create-review", ghtest.ServerError(502))
	run := rd.reviewdog(log)
	if n := rd.srv.Counts()["pulls/create-review"]; run.code != 1 || n != 1 || !strings.Contains(run.stderr, "502") {
		t.Errorf("reviewdog: want exit 1 after one 502 and no retry, got %d create-review requests, %v", n, run)
	}
	if st := rd.state(); len(st.comments) != 0 {
		t.Errorf("reviewdog: %d comments after the 502", len(st.comments))
	}

	us := newPR(t, calcDebug)
	us.srv.Inject("pulls/create-review", ghtest.ServerError(502))
	rep, waits, err := us.ours(log)
	if err != nil {
		t.Fatalf("ours: %v", err)
	}
	if n := us.srv.Counts()["pulls/create-review"]; n != 2 || len(waits) != 1 || rep.Reviews["peerlint"].Posted != 1 {
		t.Errorf("ours: want one retry and the review posted, got %d create-review requests, waits %v, %+v", n, waits, rep.Reviews["peerlint"])
	}
	if cs := us.state().lineComments("app/calc.go"); len(cs) != 1 || cs[0].Line != 4 {
		t.Errorf("ours: comments %+v, want one on line 4", cs)
	}
}

// guide is a Markdown file whose list item holds a fenced block indented by
// two spaces (lines 5-7); the pull request changes line 6.
var guide = []ghtest.File{{Path: "docs/guide.md",
	Base: "# Guide\n\n- Build it:\n\n  ```sh\n  make\n  ```\n",
	Head: "# Guide\n\n- Build it:\n\n  ```sh\n  make all\n  ```\n"}}

// Claim 5: a suggestion whose new text holds an indented code fence.
func TestIndentedFenceInSuggestion(t *testing.T) {
	newText := "  ```sh\n  make all -j4\n  ```"
	log := sarifLog(t, result{rule: "parallel-make", message: "Build in parallel.", path: "docs/guide.md",
		at: region{StartLine: 5, EndLine: 7}, fixes: []fix{{deleted: region{StartLine: 5, EndLine: 7}, inserted: ptr(newText)}}})
	want := newText + "\n"

	rd := newPR(t, guide)
	if run := rd.reviewdog(log); run.code != 0 {
		t.Fatalf("reviewdog: %v", run)
	}
	cs := rd.state().lineComments("docs/guide.md")
	if len(cs) != 1 || cs[0].StartLine != 5 || cs[0].Line != 7 {
		t.Fatalf("reviewdog: want one comment on lines 5-7, got %+v", cs)
	}
	content, _, found := suggestion(cs[0].Body)
	if !found || content == want || !strings.HasPrefix(want, content) {
		t.Errorf("reviewdog: want a suggestion closed early by the indented fence, got %q (found=%v) in\n%s", content, found, cs[0].Body)
	}
	t.Logf("reviewdog's suggestion replaces lines 5-7 with %q", content)

	us := newPR(t, guide)
	if _, _, err := us.ours(log); err != nil {
		t.Fatalf("ours: %v", err)
	}
	cs = us.state().lineComments("docs/guide.md")
	if len(cs) != 1 || cs[0].StartLine != 5 || cs[0].Line != 7 {
		t.Fatalf("ours: want one comment on lines 5-7, got %+v", cs)
	}
	if content, closed, found := suggestion(cs[0].Body); !found || !closed || content != want {
		t.Errorf("ours: suggestion %q (closed=%v found=%v), want %q in\n%s", content, closed, found, want, cs[0].Body)
	}
}
