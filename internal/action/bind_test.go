package action

import (
	"context"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/fingerprint"
	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/subject"
)

// These tests are the attacks of issue 11, cases 1 and 2, played by the
// pull request's author, who writes the gate's answer (or steers the agent
// that does) and the head's tree, but not the workflow.

// freshRunOn checks that the only agc/code-review check run on sha is the
// gate's own fresh judgment (a block, not a carried verdict).
func (p *carryPR) freshRunOn(sha string) {
	p.t.Helper()
	var runs []*ghtest.CheckRun
	p.srv.Snapshot(func(_ map[string]*ghtest.PullRequest, all []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		for _, r := range all {
			if r.HeadSHA == sha && r.Name == "agc/code-review" {
				runs = append(runs, r)
			}
		}
	})
	if len(runs) != 1 || runs[0].Conclusion != "failure" || strings.Contains(runs[0].Title, "carried") {
		for _, r := range runs {
			p.t.Logf("agc/code-review on %s: %s %q", sha[:7], r.Conclusion, r.Title)
		}
		p.t.Fatalf("%d agc/code-review runs on %s; want exactly the gate's fresh block", len(runs), sha[:7])
	}
}

// TestAttackSymlinkForgedBinding is issue 11, case 1. With scope: src/**,
// the first push holds src/evil -> /etc, so the answer cannot be bound; the
// answer carries a subject.fingerprint (and an agc-action/gate-subject)
// that the author computed beforehand for the next commit, which removes
// the link and adds a backdoor. Nothing may be carried to that commit: the
// gate must judge it afresh.
func TestAttackSymlinkForgedBinding(t *testing.T) {
	p := newCarryPR(t)
	gateStep := map[string]string{"agc": "code-review=review.json", "scope": "src/**", "fail-on": "never"}
	carryStep := map[string]string{"carry": "true", "gate": "code-review", "scope": "src/**", "fail-on": "never"}

	p.repo.Symlink("/etc", "src/evil")
	ev := p.push("src/a.go", "package a // the change under review\n")
	h1 := p.head

	// The author computes the fingerprint of the next commit's tree, as
	// agc-sarif fingerprint --scope 'src/**' --gate-id code-review
	// --gate-version 1 would on it.
	p.repo.Git("rm", "-q", "src/evil")
	p.repo.Write("src/backdoor.go", "package a // phones home\n")
	future := p.repo.Commit("the next push, prepared")
	g := &fingerprint.Git{Dir: p.repo.Dir}
	defer g.Close()
	scope, _ := subject.ParseScope([]string{"src/**"})
	res, err := subject.Compute(context.Background(), g, subject.Options{Rev: future, Scope: scope, GateID: "code-review", GateVersion: "1"})
	if err != nil {
		t.Fatal(err)
	}
	p.repo.Git("reset", "-q", "--hard", h1)

	p.answer(agc.Allow, map[string]any{"kind": agc.SubjectPullRequest, "fingerprint": res.Fingerprint, "scope": []string{"src/**"},
		"agc-action/gate-subject": map[string]any{"fingerprint": res.Fingerprint, "scope": []string{"src/**"}, "bound_at": h1}}, nil)
	_, _, log := p.action(ev, gateStep)
	if !strings.Contains(log, "points outside the repository") {
		t.Fatalf("the answer on %s should not be bound (the symlink leaves the repository):\n%s", h1[:7], log)
	}

	p.repo.Git("rm", "-q", "src/evil")
	ev = p.push("src/backdoor.go", "package a // phones home\n")
	h2 := p.head
	if now, err := subject.Compute(context.Background(), g, subject.Options{Rev: h2, Scope: scope, GateID: "code-review", GateVersion: "1"}); err != nil || now.Fingerprint != res.Fingerprint {
		t.Fatalf("the author's fingerprint %s is not that of %s: %+v, %v", res.Fingerprint, h2[:7], now, err)
	}
	_, out, log := p.action(ev, carryStep)
	if out["carried"] == "true" || strings.Contains(log, "carried from") {
		t.Fatalf("an allow was carried to %s, which no gate judged:\n%s", h2[:7], log)
	}
	if run := p.runOn(h2); run != nil {
		t.Fatalf("a check run was posted on %s before the gate ran: %s %q", h2[:7], run.Conclusion, run.Title)
	}
	p.answer(agc.Block, map[string]any{"kind": agc.SubjectPullRequest, "fingerprint": "sha256:the-agent", "scope": []string{"src/**"}}, nil)
	if code, _, log := p.action(ev, gateStep); code != cmdenv.ExitOK {
		t.Fatalf("the gate judges %s: exit %d\n%s", h2[:7], code, log)
	}
	p.freshRunOn(h2)
}

// TestAttackAnswerChoosesScope is issue 11, case 2: the answer names a
// scope that selects nothing, so that its fingerprint survives any push.
// Without a scope the workflow defines, nothing is carried, and the log
// says why; a scope (the workflow's) that selects nothing is never carried
// either.
func TestAttackAnswerChoosesScope(t *testing.T) {
	nothing := map[string]any{"kind": agc.SubjectPullRequest, "fingerprint": "sha256:the-agent", "scope": []string{"docs/nothing-here/**"}}
	for _, tc := range []struct {
		name     string
		inputs   map[string]string
		why      string // in the gate step's log
		carryWhy string // in the carry step's
	}{
		{"no scope input", map[string]string{}, "no scope", "not carrying: the workflow defines no scope"},
		{"a scope that selects nothing", map[string]string{"scope": "docs/nothing-here/**"}, "selects no entry", "has no binding record"},
		{"a scope file that selects nothing", map[string]string{"scope-file": ".github/agc-scope"}, "selects no entry", "has no binding record"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newCarryPR(t)
			p.repo.Write(".github/agc-scope", "docs/nothing-here/**\n")
			p.repo.Commit("a scope file on the base branch")
			p.repo.Git("update-ref", "refs/remotes/origin/main", "HEAD")
			gateStep := map[string]string{"agc": "code-review=review.json", "fail-on": "never"}
			carryStep := map[string]string{"carry": "true", "gate": "code-review", "fail-on": "never"}
			for k, v := range tc.inputs {
				gateStep[k], carryStep[k] = v, v
			}
			ev := p.push("src/a.go", "package a // the change under review\n")
			p.answer(agc.Allow, nothing, nil)
			if _, _, log := p.action(ev, gateStep); !strings.Contains(log, tc.why) {
				t.Errorf("the gate step must say why its answer cannot be carried (%q):\n%s", tc.why, log)
			}

			ev = p.push("src/a.go", "package a // edited after the allow\n")
			h2 := p.head
			_, out, log := p.action(ev, carryStep)
			if out["carried"] == "true" || p.runOn(h2) != nil {
				t.Fatalf("an allow was carried across an edit of src/a.go: %v\n%s", out, log)
			}
			if !strings.Contains(log, tc.carryWhy) {
				t.Errorf("the log must say why nothing is carried (%q):\n%s", tc.carryWhy, log)
			}
			p.answer(agc.Block, nothing, nil)
			p.action(ev, gateStep)
			p.freshRunOn(h2)
		})
	}
}
