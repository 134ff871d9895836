package action

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/fingerprint/gittest"
	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/internal/prfixture"
)

// These tests are issue 12, item 7: events that went wrong, each on
// GitHub's own example payload (fixtures/webhooks).

// defaultHead is the default branch's head in GITHUB_SHA where the event
// is about another commit (the synchronize payload's base).
const defaultHead = "f95f852bd8fca8fcc58a9a2d6c842781e32a215e"

// eventWithSHAs writes payload with commit ids replaced (old, new pairs),
// so a real payload's shape names commits of a real repository.
func eventWithSHAs(t *testing.T, payload string, oldNew ...string) string {
	t.Helper()
	data := readFile(t, webhooks+payload)
	data = strings.NewReplacer(oldNew...).Replace(data)
	file := filepath.Join(t.TempDir(), payload)
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestActionCheckSuiteRerequested: a check_suite workflow runs on the
// default branch, so GITHUB_SHA is its head; the suite re-requested is
// about check_suite.head_sha, pull request 2's head, and that is where the
// check run (and the review) go.
func TestActionCheckSuiteRerequested(t *testing.T) {
	srv, root := prfixture.Setup(t)
	copyFixture(t, root, prfixture.Patch, "out/lint.json")
	r := newActionRunner(t, srv, root, "check_suite", webhooks+"check_suite.rerequested.json").input("agc", "out/lint.json").input("fail-on", "never")
	r.env["GITHUB_SHA"], r.env["GITHUB_REF"] = defaultHead, "refs/heads/master"
	if code, stdout := r.run(); code != cmdenv.ExitOK {
		t.Fatalf("exit %d\n%s", code, stdout)
	}
	if runs := runsOn(srv, defaultHead); len(runs) != 0 {
		t.Errorf("check runs posted on the default branch's head %s: %v", defaultHead[:7], runs)
	}
	if run := runsOn(srv, prfixture.HeadSHA)["agc/go-lint"]; run == nil || run.Conclusion != "failure" {
		t.Fatalf("no failing agc/go-lint on check_suite.head_sha %s: %v", prfixture.HeadSHA[:7], srv.Log())
	}
	if pr := srv.PR(prfixture.Repo, 2); len(pr.Reviews) != 1 || pr.Reviews[0].CommitID != prfixture.HeadSHA {
		t.Errorf("want one review on the suite's pull request at its head: %+v", pr.Reviews)
	}
}

// TestActionDeletionPush: a push that deletes a ref has no commit (after
// is all zeros) and GITHUB_SHA is the default branch's head. Nothing is
// posted or uploaded, and the log says why.
func TestActionDeletionPush(t *testing.T) {
	srv, root := prfixture.Setup(t)
	copyFixture(t, root, prfixture.Patch, "out/lint.json")
	r := newActionRunner(t, srv, root, "push", webhooks+"push.deleted.json").
		input("agc", "out/lint.json").input("upload-sarif", "true").input("status", "true")
	r.env["GITHUB_SHA"], r.env["GITHUB_REF"] = defaultHead, "refs/tags/simple-tag"
	code, stdout := r.run()
	if code != cmdenv.ExitOK {
		t.Errorf("exit %d, want 0: a deletion is nothing to fail on\n%s", code, stdout)
	}
	if n := writes(srv); n != 0 {
		t.Errorf("a deletion push wrote %d times: %v", n, srv.Log())
	}
	if !strings.Contains(stdout, "::notice title=agc-action::skipped: this push deleted refs/tags/simple-tag") {
		t.Errorf("the log must say the push is skipped and why:\n%s", stdout)
	}
}

// TestActionWorkflowRunAdvice: on workflow_run the checkout is the
// default branch and the commit reported on (workflow_run.head_sha) is not
// in the clone, nor can it be fetched. The advice names the expression
// that holds that commit there, not pull_request.head.sha (empty on
// workflow_run); each finding with a line still gets its annotation.
func TestActionWorkflowRunAdvice(t *testing.T) {
	const runSHA = "3484a3fb816e0859fd6e1cea078d76385ff50625" // workflow_run.head_sha of the payload
	srv := ghtest.New(t, ghtest.Options{})
	repo := gittest.New(t)
	repo.Write("src/a.go", "package a\n", "artifact/lint.json", string(lintAnswer()))
	repo.Commit("the default branch")
	r := newActionRunner(t, srv, repo.Dir, "workflow_run", webhooks+"workflow_run.completed.json").input("agc", "artifact/*.json").input("fail-on", "never")
	code, stdout := r.run()
	if code != cmdenv.ExitOK {
		t.Fatalf("exit %d\n%s", code, stdout)
	}
	if !strings.Contains(stdout, "${{ github.event.workflow_run.head_sha }}") || strings.Contains(stdout, "pull_request.head.sha") {
		t.Errorf("the advice must name github.event.workflow_run.head_sha:\n%s", stdout)
	}
	run := runsOn(srv, runSHA)["agc/lint"]
	if run == nil {
		t.Fatalf("no check run on %s: %v", runSHA[:7], srv.Log())
	}
	if got := annotatedLines(run); len(got) != 1 || got["name: lint/name/src/a.go:5"] != 5 {
		t.Errorf("the finding with a line lost its annotation: %v", run.Annotations)
	}
}

// lintAnswer is a lint gate's block about src/a.go: one finding whose
// lines come from its patch (head line 4), one whose location names line 5.
func lintAnswer() []byte {
	lint := &agc.Response{AGC: agc.Version, Gate: agc.Gate{ID: "lint", Kind: agc.Deterministic, Version: "1"},
		Subject: agc.Subject{Kind: agc.SubjectDiff, Fingerprint: "sha256:x"}, Verdict: agc.Block,
		Coverage: agc.Coverage{Complete: true, Classes: []string{"magic", "name"}}, Attempt: agc.Attempt{N: 1, Budget: 3},
		Findings: []agc.Finding{
			{ID: "lint/magic/src/a.go#f", Class: "magic", Location: "src/a.go#f", What: "100 is magic.", Why: "Rule magic.",
				Severity: agc.Blocking, Status: agc.StatusNew,
				Remedy: agc.Remedy{Kind: agc.RemedyPatch, Edits: []agc.Edit{{Path: "src/a.go", Find: "\ta_1 := compute(100)\n", Replace: "\ta_1 := compute(1)\n"}}},
				Check:  agc.Check{Kind: agc.CheckCommand, Run: "go vet ./..."}},
			{ID: "lint/name/src/a.go:5", Class: "name", Location: "src/a.go:5", What: "a_2 is badly named.", Why: "Rule name.",
				Severity: agc.Advisory, Status: agc.StatusNew, Remedy: agc.Remedy{Kind: agc.RemedyCommand, Run: "make fix"},
				Check: agc.Check{Kind: agc.CheckPreview}},
		}}
	data, _ := agc.Encode(lint)
	return data
}

// annotatedLines maps each annotation title of run to its start line.
func annotatedLines(run *ghtest.CheckRun) map[string]float64 {
	out := map[string]float64{}
	for _, a := range run.Annotations {
		out[a["title"].(string)], _ = a["start_line"].(float64)
	}
	return out
}

// mergeBase and mergeHead are src/a.go at the base and at the head of the
// merge-checkout tests: the head changes line 4.
const (
	mergeBase = "package a\n\nfunc f() {\n\ta_1 := compute(1)\n\ta_2 := compute(2)\n}\n"
	mergeHead = "package a\n\nfunc f() {\n\ta_1 := compute(100)\n\ta_2 := compute(2)\n}\n"
)

// mergeCheckout builds in repo what the default pull_request checkout is:
// the head h0 (mergeHead on branch pr, over mergeBase) merged into a main
// that gained two lines above the change since, and leaves repo detached
// at that merge. It returns h0.
func mergeCheckout(repo *gittest.Repo) string {
	repo.Write("src/a.go", mergeBase)
	repo.Commit("base")
	repo.Git("checkout", "-q", "-b", "pr")
	repo.Write("src/a.go", mergeHead)
	h0 := repo.Commit("the change")
	repo.Git("checkout", "-q", "main")
	repo.Write("src/a.go", "// one\n// two\n"+mergeBase)
	repo.Commit("base moves on")
	repo.Git("checkout", "-q", "--detach", "main")
	repo.Git("merge", "-q", "--no-ff", "-m", "merge", h0)
	return h0
}

// TestActionMergeCheckoutAnnotations: on the default pull_request
// checkout, the merge with a base that gained two lines above the change,
// shallow as actions/checkout makes it, the head's objects are not in the
// clone. They are fetched from origin by the head's id, and every finding
// with a line is annotated on the head's line, not the merge's. With no
// origin to fetch from, a finding keeps the line its location names.
func TestActionMergeCheckoutAnnotations(t *testing.T) {
	origin := gittest.New(t)
	h0 := mergeCheckout(origin)
	merge := origin.Git("rev-parse", "HEAD")
	origin.Git("update-ref", "refs/pull/2/merge", merge)

	data := lintAnswer()
	ev := eventWithSHAs(t, "pull_request.synchronize.json", prfixture.HeadSHA, h0)

	for _, tc := range []struct {
		name   string
		origin bool
		want   map[string]float64 // annotation title -> head line
	}{
		{"fetched from origin", true, map[string]float64{"magic: lint/magic/src/a.go#f": 4, "name: lint/name/src/a.go:5": 5}},
		{"no origin", false, map[string]float64{"name: lint/name/src/a.go:5": 5}}, // the patch's lines are not known
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := ghtest.New(t, ghtest.Options{})
			srv.SetHead(prfixture.Repo, 2, h0, []ghtest.File{{Path: "src/a.go", Base: mergeBase, Head: mergeHead}})
			ws := filepath.Join(t.TempDir(), "ws")
			gittest.Run(t, origin.Dir, "init", "-q", ws)
			gittest.Run(t, ws, "remote", "add", "origin", "file://"+origin.Dir)
			gittest.Run(t, ws, "fetch", "-q", "--depth=1", "origin", "+refs/pull/2/merge:refs/remotes/pull/2/merge")
			gittest.Run(t, ws, "checkout", "-q", "--detach", "refs/remotes/pull/2/merge")
			if !tc.origin {
				gittest.Run(t, ws, "remote", "remove", "origin")
			}
			writeFile(t, ws, "lint.json", data)
			r := newActionRunner(t, srv, ws, "pull_request", ev).input("agc", "lint=lint.json").input("fail-on", "never")
			r.env["GITHUB_SHA"] = merge
			if code, out := r.run(); code != cmdenv.ExitOK {
				t.Fatalf("exit %d\n%s", code, out)
			}
			run := runsOn(srv, h0)["agc/lint"]
			if run == nil {
				t.Fatalf("no check run on the head: %v", srv.Log())
			}
			got := annotatedLines(run)
			if len(got) != len(tc.want) {
				t.Errorf("annotations %v, want %v", got, tc.want)
			}
			for title, line := range tc.want {
				if got[title] != line {
					t.Errorf("annotation %q on line %v, want head line %v (all: %v)", title, got[title], line, got)
				}
			}
		})
	}
}
