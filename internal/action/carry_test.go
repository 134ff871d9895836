package action

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/carry"
	"github.com/agcgate/agc-action/fingerprint"
	"github.com/agcgate/agc-action/fingerprint/gittest"
	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/internal/prfixture"
)

// carryPR is a pull request in a real git repository (the workspace) and
// the emulator, pushed to head by head.
type carryPR struct {
	t    *testing.T
	srv  *ghtest.Server
	repo *gittest.Repo
	head string
}

func newCarryPR(t *testing.T) *carryPR {
	p := &carryPR{t: t, srv: ghtest.New(t, ghtest.Options{}), repo: gittest.New(t)}
	p.repo.Write("src/a.go", "package a\n", "docs/README.md", "# docs\n", ".github/review.md", "Review for correctness.\n",
		".github/agc-scope", "# what the review gate judges\nsrc/**\n")
	p.repo.Commit("base")
	p.repo.Git("update-ref", "refs/remotes/origin/main", "HEAD")
	return p
}

// push commits a change and moves the pull request's head to it; it
// returns the synchronize event (or opened, for the first push).
func (p *carryPR) push(path, content string) string {
	before := p.head
	p.repo.Write(path, content)
	p.head = p.repo.Commit("change " + path)
	p.srv.SetHead(prfixture.Repo, 2, p.head, []ghtest.File{{Path: "src/a.go", Base: "package a\n", Head: readFile(p.t, filepath.Join(p.repo.Dir, "src/a.go"))}})
	return pushEvent(p.t, before, p.head)
}

// pushEvent writes the pull_request event of a push of head onto pull
// request 2 after before ("opened" when before is empty), and returns its
// path.
func pushEvent(t *testing.T, before, head string) string {
	action := "synchronize"
	if before == "" {
		action = "opened"
	}
	ev := map[string]any{"action": action, "number": 2, "before": before, "after": head,
		"pull_request": map[string]any{"number": 2,
			"head": map[string]any{"sha": head, "repo": map[string]any{"full_name": prfixture.Repo}},
			"base": map[string]any{"ref": "main", "repo": map[string]any{"full_name": prfixture.Repo}}}}
	data, _ := json.Marshal(ev)
	file := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

func readFile(t *testing.T, p string) string {
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// review is the review gate's answer: a block about src/.
func (p *carryPR) review() {
	r := &agc.Response{AGC: agc.Version, Gate: agc.Gate{ID: "code-review", Kind: agc.Judgment, Version: "1"},
		Subject: agc.Subject{Kind: agc.SubjectPullRequest, Fingerprint: "sha256:whatever-the-agent-said", Scope: []string{"src/**"}},
		Verdict: agc.Block, Coverage: agc.Coverage{Complete: true, Classes: []string{"naming"}}, Attempt: agc.Attempt{N: 1, Budget: 3},
		Findings: []agc.Finding{{ID: "code-review/naming/src/a.go#a", Class: "naming", Location: "src/a.go#a",
			What: "Package a is badly named.", Why: "Rule naming: names say what.", Severity: agc.Blocking, Status: agc.StatusNew,
			Remedy: agc.Remedy{Kind: agc.RemedyDelegate, Role: "author"},
			Check:  agc.Check{Kind: agc.CheckCondition, Condition: "The package has a telling name.", Run: "go vet ./..."}}}}
	data, _ := agc.Encode(r)
	writeFile(p.t, p.repo.Dir, "review.json", data)
}

func (p *carryPR) action(event string, inputs map[string]string) (int, map[string]string, string) {
	r, code, out := runOnHead(p.t, p.srv, p.repo.Dir, p.head, event, inputs)
	return code, r.outputs(), out
}

// runOnHead runs the Action in root on the pull_request event in the file
// event, with GITHUB_SHA at head and the inputs given.
func runOnHead(t *testing.T, srv *ghtest.Server, root, head, event string, inputs map[string]string) (*actionRunner, int, string) {
	r := newActionRunner(t, srv, root, "pull_request", event)
	r.env["GITHUB_SHA"] = head
	for k, v := range inputs {
		r.input(k, v)
	}
	code, out := r.run()
	return r, code, out
}

func (p *carryPR) runOn(sha string) *ghtest.CheckRun {
	return runsOn(p.srv, sha)["agc/code-review"]
}

// The two steps of the README's carry workflow: the gate, bound to the
// scope file, and carrying its verdict.
var (
	readmeGate  = map[string]string{"agc": "code-review=review.json", "scope-file": ".github/agc-scope", "gate-config": ".github/review.md"}
	readmeCarry = map[string]string{"carry": "true", "gate": "code-review", "scope-file": ".github/agc-scope", "gate-config": ".github/review.md"}
)

// firstReviewBlocks pushes an in-scope change, has the gate block it, and
// returns the head and the check run it judged.
func (p *carryPR) firstReviewBlocks() (string, *ghtest.CheckRun) {
	p.t.Helper()
	ev := p.push("src/a.go", "package a // the change under review\n")
	p.review()
	if code, out, log := p.action(ev, readmeGate); code != cmdenv.ExitFail || out["verdict"] != "block" {
		p.t.Fatalf("the first review does not block: exit %d %v\n%s", code, out, log)
	}
	return p.head, p.runOn(p.head)
}

// bindingOf reads the binding record of a check run.
func bindingOf(t *testing.T, run *ghtest.CheckRun) *carry.Binding {
	t.Helper()
	if run == nil {
		t.Fatal("no check run")
	}
	b, err := carry.ReadBinding(run.Text)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestActionREADMECarry is the README's third workflow across three
// pushes: a docs-only push carries the block; an in-scope edit does not,
// and the gate runs again; a docs-only push after that carries again.
func TestActionREADMECarry(t *testing.T) {
	p := newCarryPR(t)
	h0, judged := p.firstReviewBlocks()
	resp := readBack(t, judged)
	if b := bindingOf(t, judged); b == nil || b.SHA != h0 || !strings.HasPrefix(b.Fingerprint, "sha256:") || b.ScopeFrom != "scope-file .github/agc-scope at origin/main" {
		t.Fatalf("the answer was not bound to a scoped fingerprint: %+v", b)
	}
	if resp.Subject.Fingerprint != "sha256:whatever-the-agent-said" {
		t.Errorf("the gate's own subject was rewritten: %s", resp.Subject.Fingerprint)
	}

	ev := p.push("docs/README.md", "# docs, reworded\n")
	h1 := p.head
	code, out, log := p.action(ev, readmeCarry)
	if out["carried"] != "true" || code != cmdenv.ExitFail || out["verdict"] != "block" {
		t.Fatalf("docs-only push: exit %d %v\n%s", code, out, log)
	}
	if run := p.runOn(h1); run == nil || run.Conclusion != "failure" || run.Title != "carried from "+h0[:7]+": scope unchanged" {
		t.Fatalf("carried run on %s: %+v", h1[:7], run)
	}
	if b := bindingOf(t, p.runOn(h1)); b == nil || b.SHA != h0 || b.CarriedTo != h1 || !strings.Contains(log, "recomputed at "+h0[:7]) {
		t.Errorf("carried run's binding %+v, want judged on %s, carried to %s, recomputed there:\n%s", b, h0[:7], h1[:7], log)
	}

	ev = p.push("src/a.go", "package a // fixed\n")
	h2 := p.head
	code, out, log = p.action(ev, readmeCarry)
	if out["carried"] != "false" || code != cmdenv.ExitOK || !strings.Contains(log, "src/a.go modified") {
		t.Fatalf("in-scope edit must not carry: exit %d %v\n%s", code, out, log)
	}
	if run := p.runOn(h2); run != nil {
		t.Fatalf("nothing may be posted on %s before the gate runs again: %+v", h2[:7], run)
	}
	p.review()
	if code, _, log := p.action(ev, readmeGate); code != cmdenv.ExitFail {
		t.Fatalf("the gate runs again: exit %d\n%s", code, log)
	}

	ev = p.push("docs/README.md", "# docs, once more\n")
	if _, out, log := p.action(ev, readmeCarry); out["carried"] != "true" {
		t.Fatalf("docs-only push after the fix: %v\n%s", out, log)
	}
	if run := p.runOn(p.head); run == nil || run.Title != "carried from "+h2[:7]+": scope unchanged" {
		t.Fatalf("carried from the head the gate last judged: %+v", run)
	}

	// Changing the gate's configuration voids the verdict.
	ev = p.push(".github/review.md", "Review for correctness and naming.\n")
	if _, out, log := p.action(ev, readmeCarry); out["carried"] != "false" || !strings.Contains(log, ".github/review.md") {
		t.Fatalf("a gate config change must void: %v\n%s", out, log)
	}
}

// TestActionCarryOnlyWhatWasJudged: answers are bound to the commit
// reported on, never to another checkout; a gate answered in this run is
// not also carried; one answer that cannot be bound does not leave the
// others unbound, and an unbound answer never carries.
func TestActionCarryOnlyWhatWasJudged(t *testing.T) {
	t.Run("checkout is the base branch", func(t *testing.T) {
		p := newCarryPR(t)
		ev := p.push("src/a.go", "package a // the change under review\n")
		h0 := p.head
		p.review()
		p.repo.Git("checkout", "-q", "--detach", "refs/remotes/origin/main") // what workflow_run checks out
		p.action(ev, map[string]string{"agc": "code-review=review.json", "scope": "src/**", "fail-on": "never"})
		if b := bindingOf(t, p.runOn(h0)); b == nil || b.SHA != h0 || b.Commit != h0 {
			t.Fatalf("bound to %+v, want the commit reported on, %s, not the checkout", b, h0)
		}
		p.repo.Git("checkout", "-q", "--detach", h0)
		ev = p.push("src/a.go", "package a // changed in scope\n")
		p.repo.Git("checkout", "-q", "--detach", "refs/remotes/origin/main")
		if _, out, log := p.action(ev, map[string]string{"carry": "true", "gate": "code-review", "scope": "src/**", "fail-on": "never"}); out["carried"] != "false" {
			t.Fatalf("carried across an in-scope change from a base-branch checkout: %v\n%s", out, log)
		}
	})
	t.Run("the commit reported on is not in the clone", func(t *testing.T) {
		p := newCarryPR(t)
		ev := p.push("src/a.go", "package a // the change under review\n")
		p.review()
		p.repo.Git("checkout", "-q", "--detach", "refs/remotes/origin/main")
		data := strings.ReplaceAll(readFile(t, ev), p.head, strings.Repeat("ab", 20))
		if err := os.WriteFile(ev, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		p.srv.SetHead(prfixture.Repo, 2, strings.Repeat("ab", 20), nil)
		_, _, log := p.action(ev, map[string]string{"agc": "code-review=review.json", "scope": "src/**", "fail-on": "never"})
		if !strings.Contains(log, "nothing is carried") {
			t.Errorf("an answer about a commit the clone lacks must not be bound:\n%s", log)
		}
	})
	t.Run("answered and named", func(t *testing.T) {
		p := newCarryPR(t)
		ev := p.push("src/a.go", "package a // the change under review\n")
		p.review()
		p.action(ev, map[string]string{"agc": "code-review=review.json", "scope": "src/**", "fail-on": "never"})
		ev = p.push("docs/README.md", "# docs, reworded\n")
		_, out, log := p.action(ev, map[string]string{"agc": "code-review=review.json", "carry": "true", "gate": "code-review", "scope": "src/**", "fail-on": "never"})
		if out["carried"] != "false" || out["blocking"] != "1" || !strings.Contains(log, "answered in this run") {
			t.Fatalf("a gate answered in this run must not be carried too: %v\n%s", out, log)
		}
		n := 0
		p.srv.Snapshot(func(_ map[string]*ghtest.PullRequest, runs []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
			for _, r := range runs {
				if r.HeadSHA == p.head && r.Name == "agc/code-review" {
					n++
				}
			}
		})
		if n != 1 {
			t.Errorf("%d agc/code-review check runs on the head, want 1", n)
		}
	})
	t.Run("an answer not about the tree", func(t *testing.T) {
		p := newCarryPR(t)
		ev := p.push("src/a.go", "package a // the change under review\n")
		p.review()
		bad := strings.ReplaceAll(readFile(t, filepath.Join(p.repo.Dir, "review.json")), `"code-review"`, `"lint"`)
		bad = strings.ReplaceAll(bad, `"pull-request"`, `"tool-call"`)
		writeFile(t, p.repo.Dir, "a.json", []byte(bad))
		p.action(ev, map[string]string{"agc": "lint=a.json\ncode-review=review.json", "scope": "src/**", "fail-on": "never"})
		for gate, want := range map[string]bool{"agc/code-review": true, "agc/lint": false} {
			if b := bindingOf(t, runsOn(p.srv, p.head)[gate]); (b != nil) != want {
				t.Errorf("%s bound %v, want %v", gate, b != nil, want)
			}
		}
		ev = p.push("docs/README.md", "# docs, reworded\n")
		if _, out, log := p.action(ev, map[string]string{"carry": "true", "gate": "lint", "scope": "src/**", "fail-on": "never"}); out["carried"] != "false" || !strings.Contains(log, "has no binding record") {
			t.Errorf("an unbound answer must never carry: %v\n%s", out, log)
		}
	})
}

// TestActionCarryShallowClone: the commit a previous run judged is not in
// a shallow clone. Fetched by its id from origin, its fingerprint is
// recomputed; with no origin to fetch from, the binding record of our own
// run stands for it.
func TestActionCarryShallowClone(t *testing.T) {
	p := newCarryPR(t)
	gateStep := map[string]string{"agc": "code-review=review.json", "scope": "src/**", "fail-on": "never"}
	carryStep := map[string]string{"carry": "true", "gate": "code-review", "scope": "src/**", "fail-on": "never"}
	ev := p.push("src/a.go", "package a // the change under review\n")
	h0 := p.head
	p.review()
	p.action(ev, gateStep)
	ev = p.push("docs/README.md", "# docs, reworded\n")

	for _, tc := range []struct {
		name, remote, want string
	}{
		{"fetched by id", "file://" + p.repo.Dir, "recomputed at " + h0[:7]},
		{"no origin", "", "by the binding record of check run"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := filepath.Join(t.TempDir(), "ws")
			gittest.Run(t, p.repo.Dir, "clone", "-q", "--depth=1", "file://"+p.repo.Dir, ws)
			if tc.remote == "" {
				gittest.Run(t, ws, "remote", "remove", "origin")
			}
			g := &fingerprint.Git{Dir: ws}
			if !g.HasCommit(context.Background(), p.head) || g.HasCommit(context.Background(), h0) {
				t.Fatalf("the clone should hold the head %s, not the commit judged %s", p.head[:7], h0[:7])
			}
			g.Close()
			r := newActionRunner(t, p.srv, ws, "pull_request", ev)
			for k, v := range carryStep {
				r.input(k, v)
			}
			_, log := r.run()
			if out := r.outputs(); out["carried"] != "true" || !strings.Contains(log, tc.want) {
				t.Fatalf("carried %q, want true and %q in the log:\n%s", out["carried"], tc.want, log)
			}
		})
	}
}

// TestActionMergeCheckoutSuggestsOnHeadLines: on the default pull_request
// checkout (the merge with a base that gained lines above the change), a
// suggestion is computed on the head's files, so it lands on the head's
// line, not the merge's.
func TestActionMergeCheckoutSuggestsOnHeadLines(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	repo := gittest.New(t)
	h0 := mergeCheckout(repo)
	srv.SetHead(prfixture.Repo, 2, h0, []ghtest.File{{Path: "src/a.go", Base: mergeBase, Head: mergeHead}})

	r := &agc.Response{AGC: agc.Version, Gate: agc.Gate{ID: "lint", Kind: agc.Deterministic, Version: "1"},
		Subject: agc.Subject{Kind: agc.SubjectDiff, Fingerprint: "sha256:x", Scope: []string{"src/**"}}, Verdict: agc.Block,
		Coverage: agc.Coverage{Complete: true, Classes: []string{"magic"}}, Attempt: agc.Attempt{N: 1, Budget: 3},
		Findings: []agc.Finding{{ID: "lint/magic/src/a.go#f", Class: "magic", Location: "src/a.go#f", What: "100 is magic.",
			Why: "Rule magic.", Severity: agc.Blocking, Status: agc.StatusNew,
			Remedy: agc.Remedy{Kind: agc.RemedyPatch, Edits: []agc.Edit{{Path: "src/a.go", Find: "\ta_1 := compute(100)\n", Replace: "\ta_1 := compute(1)\n"}}},
			Check:  agc.Check{Kind: agc.CheckCommand, Run: "go vet ./..."}}}}
	data, _ := agc.Encode(r)
	writeFile(t, repo.Dir, "lint.json", data)
	ev := eventWithSHAs(t, "pull_request.synchronize.json", prfixture.HeadSHA, h0)
	run := newActionRunner(t, srv, repo.Dir, "pull_request", ev).input("agc", "lint.json").input("fail-on", "never")
	run.env["GITHUB_SHA"] = repo.Git("rev-parse", "HEAD")
	if code, out := run.run(); code != cmdenv.ExitOK {
		t.Fatalf("exit %d\n%s", code, out)
	}
	pr := srv.PR(prfixture.Repo, 2)
	if len(pr.Comments) != 1 || pr.Comments[0].Line != 4 || !strings.Contains(pr.Comments[0].Body, "```suggestion\n\ta_1 := compute(1)\n```") {
		t.Fatalf("want one suggestion on head line 4, got %+v", pr.Comments)
	}
}
