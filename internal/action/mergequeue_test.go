package action

import (
	"strings"
	"testing"

	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/internal/prfixture"
)

// These tests are issue 12, item 6: where GitHub asks again about content
// a gate judged (a merge queue's group, the push of the merge), the
// verdict carries from the pull request's head when the scope is
// unchanged between the two trees. The events are GitHub's example
// payloads with the commits of a real repository put in.

// The commits the example payloads name.
const (
	exampleGroupHead = "2ffea6db159f6b6c47a24e778fb9ef40cf6b1c7d"                               // merge_group.head_sha
	exampleGroupBase = "380387fbc80638b734a49e1be1c4dfec1c01b33c"                               // merge_group.base_sha
	exampleQueueRef  = "gh-readonly-queue/main/pr-104-929f8209d40f77f4abc622a499c93a83babdbe64" // merge_group.head_ref
	examplePushAfter = "6113728f27ae82c7b1a177c8d03f9e96e0adf246"                               // push.branch.json's after
	zeroSHA          = "0000000000000000000000000000000000000000"
)

// carryStep is the README's carry step, with carry left at auto.
var carryStep = map[string]string{"gate": "code-review", "scope-file": ".github/agc-scope", "gate-config": ".github/review.md"}

// judged is pull request 2 with the review gate's block bound on its head.
func judged(t *testing.T) (*carryPR, string) {
	p := newCarryPR(t)
	h, _ := p.firstReviewBlocks()
	return p, h
}

// group makes the merge queue's commit for pull request 2 on top of base
// (the base branch, or the group before it), checks it out as
// actions/checkout does on merge_group, and returns it with its event.
func (p *carryPR) group(base string) (string, string) {
	p.repo.Git("checkout", "-q", "--detach", base)
	p.repo.Git("merge", "-q", "--no-ff", "-m", "Merge pull request #2", p.head)
	g := p.repo.Git("rev-parse", "HEAD")
	ev := eventWithSHAs(p.t, "merge_group.json", exampleGroupHead, g, exampleGroupBase, base,
		exampleQueueRef, "gh-readonly-queue/main/pr-2-"+p.head)
	return g, ev
}

// onMain commits files to the base branch, as other merges do meanwhile.
func (p *carryPR) onMain(pathContent ...string) string {
	p.repo.Git("checkout", "-q", "main")
	p.repo.Write(pathContent...)
	sha := p.repo.Commit("meanwhile on main")
	p.repo.Git("update-ref", "refs/remotes/origin/main", sha)
	return sha
}

func (p *carryPR) run(event, payload string, inputs map[string]string) (int, map[string]string, string) {
	r := newActionRunner(p.t, p.srv, p.repo.Dir, event, payload)
	r.env["GITHUB_SHA"] = p.repo.Git("rev-parse", "HEAD")
	for k, v := range inputs {
		r.input(k, v)
	}
	code, log := r.run()
	return code, r.outputs(), log
}

// TestActionMergeGroupCarries: the base moved on outside the scope; the
// merge group's commit carries the pull request head's block, and the
// merge queue's required agc/code-review is there without the review
// running again.
func TestActionMergeGroupCarries(t *testing.T) {
	p, h0 := judged(t)
	reviews := len(p.srv.PR(prfixture.Repo, 2).Reviews)
	p.onMain("docs/README.md", "# docs, reworded on main\n")
	g, ev := p.group("main")
	code, out, log := p.run("merge_group", ev, carryStep)
	if out["carried"] != "true" || code != cmdenv.ExitFail || out["verdict"] != "block" {
		t.Fatalf("merge group: exit %d %v\n%s", code, out, log)
	}
	run := p.runOn(g)
	if run == nil || run.Conclusion != "failure" || run.Title != "carried from "+h0[:7]+": scope unchanged" {
		t.Fatalf("carried run on the group's commit %s: %+v\n%s", g[:7], run, log)
	}
	if b := bindingOf(t, run); b.SHA != h0 || b.CarriedTo != g || !strings.Contains(log, "recomputed at "+h0[:7]) ||
		!strings.Contains(log, "merge group "+g[:7]+" of pull request #2") {
		t.Errorf("binding %+v, want judged on %s, carried to %s, recomputed:\n%s", b, h0[:7], g[:7], log)
	}
	if pr := p.srv.PR(prfixture.Repo, 2); len(pr.Reviews) != reviews {
		t.Errorf("a merge group posts no review on the pull request: %+v", pr.Reviews)
	}
}

// TestActionMergeGroupVoided: what entered the group's tree besides the
// pull request touches the scope (the base's new commits, or an earlier
// member of the group): nothing is carried, and the log names the change.
func TestActionMergeGroupVoided(t *testing.T) {
	t.Run("the base touched the scope", func(t *testing.T) {
		p, _ := judged(t)
		p.onMain("src/b.go", "package a // merged meanwhile\n")
		g, ev := p.group("main")
		code, out, log := p.run("merge_group", ev, carryStep)
		if out["carried"] != "false" || code != cmdenv.ExitOK || !strings.Contains(log, "src/b.go added") {
			t.Fatalf("merge group: exit %d %v\n%s", code, out, log)
		}
		if run := p.runOn(g); run != nil {
			t.Fatalf("nothing may be posted on %s before the gate runs again: %+v", g[:7], run)
		}
	})
	t.Run("an earlier member of the group touched it", func(t *testing.T) {
		p, _ := judged(t)
		p.repo.Git("checkout", "-q", "--detach", "main")
		p.repo.Write("src/c.go", "package a // pull request 3, ahead in the queue\n")
		first := p.repo.Commit("Merge pull request #3")
		g, ev := p.group(first)
		code, out, log := p.run("merge_group", ev, carryStep)
		if out["carried"] != "false" || code != cmdenv.ExitOK || !strings.Contains(log, "src/c.go added") {
			t.Fatalf("merge group: exit %d %v\n%s", code, out, log)
		}
		if run := p.runOn(g); run != nil {
			t.Fatalf("nothing may be posted on %s: %+v", g[:7], run)
		}
	})
}

// TestActionPostMergePushCarries: after the merge, the push to the
// default branch (push.branch.json: master) carries from the merged pull
// request's head, which GitHub lists for the merge commit, and not from
// the branch's previous head.
func TestActionPostMergePushCarries(t *testing.T) {
	p, h0 := judged(t)
	before := p.onMain("docs/README.md", "# docs, reworded on main\n")
	p.repo.Git("checkout", "-q", "main")
	p.repo.Git("merge", "-q", "--no-ff", "-m", "Merge pull request #2", h0)
	merge := p.repo.Git("rev-parse", "HEAD")
	p.repo.Git("update-ref", "refs/remotes/origin/master", merge)
	p.srv.Merge(prfixture.Repo, 2, "master", merge)
	ev := eventWithSHAs(t, "push.branch.json", examplePushAfter, merge, zeroSHA, before)
	code, out, log := p.run("push", ev, carryStep)
	if out["carried"] != "true" || code != cmdenv.ExitFail || !strings.Contains(log, "merged pull request #2 into master") {
		t.Fatalf("post-merge push: exit %d %v\n%s", code, out, log)
	}
	if run := p.runOn(merge); run == nil || run.Title != "carried from "+h0[:7]+": scope unchanged" {
		t.Fatalf("carried run on the merge %s: %+v", merge[:7], run)
	}
	// The scope file is read from the pushed default branch, master.
	if b := bindingOf(t, p.runOn(merge)); b.SHA != h0 || b.CarriedTo != merge {
		t.Errorf("binding %+v", b)
	}

	// A push that merged no pull request falls back to its before, which
	// no gate judged.
	p.repo.Write("docs/README.md", "# docs, pushed directly\n")
	direct := p.repo.Commit("a direct push")
	p.repo.Git("update-ref", "refs/remotes/origin/master", direct)
	ev = eventWithSHAs(t, "push.branch.json", examplePushAfter, direct, zeroSHA, merge)
	_, out, log = p.run("push", ev, carryStep)
	if out["carried"] != "true" || !strings.Contains(log, "carried from "+h0[:7]) || strings.Contains(log, "merged pull request") {
		t.Errorf("a direct push carries from its before, the carried run on %s: %v\n%s", merge[:7], out, log)
	}
}
