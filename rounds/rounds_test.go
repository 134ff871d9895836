package rounds

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/carry"
	"github.com/agcgate/agc-action/validate"
)

const (
	ours   = carry.ActionsAppID
	others = 90001
)

// fakeGitHub holds check runs by head and a pull request's commits.
type fakeGitHub struct {
	commits []string
	runs    map[string][]carry.CheckRun
	lists   int
}

func (f *fakeGitHub) List(_ context.Context, sha, name string) ([]carry.CheckRun, error) {
	f.lists++
	var out []carry.CheckRun
	for _, r := range f.runs[sha] {
		if r.Name == name {
			out = append(out, r)
		}
	}
	return out, nil
}

func (f *fakeGitHub) PullRequestCommits(context.Context, int) ([]string, error) {
	return f.commits, nil
}

func (f *fakeGitHub) Conclusion(v string) string {
	return map[string]string{agc.Allow: "success", agc.Repaired: "success", agc.Block: "failure", agc.Escalate: "action_required"}[v]
}

func sha(i int) string { return fmt.Sprintf("%040x", i) }

// push adds a head with a run of r by app (nothing when r is nil).
func (f *fakeGitHub) push(app int64, r *agc.Response) string {
	s := sha(len(f.commits) + 1)
	f.commits = append(f.commits, s)
	if r != nil {
		f.post(s, app, r)
	}
	return s
}

func (f *fakeGitHub) post(s string, app int64, r *agc.Response) {
	if f.runs == nil {
		f.runs = map[string][]carry.CheckRun{}
	}
	raw, _ := agc.Encode(r)
	id := int64(100*len(f.commits) + len(f.runs[s]))
	f.runs[s] = append(f.runs[s], carry.CheckRun{ID: id, AppID: app, Name: "agc/lint", HeadSHA: s, Status: "completed",
		Conclusion: f.Conclusion(r.Verdict), Response: raw})
}

func finding(class, status string) agc.Finding {
	return agc.Finding{ID: "lint/" + class + "/a.go", Class: class, Location: "a.go", What: class + ".", Why: "Rule " + class + ".",
		Severity: agc.Blocking, Status: status, Remedy: agc.Remedy{Kind: agc.RemedyCommand, Run: "fix"},
		Check: agc.Check{Kind: agc.CheckCommand, Run: "lint"}}
}

// answer is gate lint's answer: block with the classes, or allow.
func answer(n, budget int, classes ...string) *agc.Response {
	r := &agc.Response{AGC: agc.Version, Gate: agc.Gate{ID: "lint", Kind: agc.Deterministic, Version: "1"},
		Subject: agc.Subject{Kind: agc.SubjectCommit, Fingerprint: "sha256:x"}, Verdict: agc.Allow,
		Coverage: agc.Coverage{Complete: true, Classes: []string{"a", "b", "c"}}, Attempt: agc.Attempt{N: n, Budget: budget}}
	for _, c := range classes {
		r.Findings = append(r.Findings, finding(c, agc.StatusNew))
	}
	if len(classes) > 0 {
		r.Verdict = agc.Block
	}
	return r
}

// next reads the chain below a new head and follows it with r, as the
// Action does, and posts the round on the new head.
func (f *fakeGitHub) next(t *testing.T, r *agc.Response, p Policy) *Next {
	t.Helper()
	head := f.push(0, nil)
	c, err := Read(context.Background(), f, ReadOptions{Gate: "lint", Head: head, PR: 1, Like: r})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := agc.Encode(r)
	nx, err := Follow(c, agc.Doc{Response: r, Raw: raw}, p)
	if err != nil {
		t.Fatal(err)
	}
	f.post(head, ours, nx.Response)
	return nx
}

func rounds(nxs ...*Next) []validate.Input {
	var in []validate.Input
	for i, nx := range nxs {
		raw, _ := agc.Encode(nx.Response)
		in = append(in, validate.Input{File: fmt.Sprintf("round%d.json", i+1), Data: raw})
	}
	return in
}

func TestFollowNumbersAndEndsChains(t *testing.T) {
	f := &fakeGitHub{}
	r1 := f.next(t, answer(1, 3, "a", "b"), Policy{})
	r2 := f.next(t, answer(1, 3, "b"), Policy{})
	if r2.Response.Attempt.N != 2 || !slices.Equal(r2.Response.Carried, []string{"lint/a/a.go"}) || r2.Response.Findings[0].Status != agc.StatusStillOpen {
		t.Fatalf("round 2: %+v", r2.Response)
	}
	r3 := f.next(t, answer(1, 3), Policy{}) // allow ends the chain
	if r3.Response.Attempt.N != 3 || r3.Escalation != nil {
		t.Fatalf("round 3 (allow): %+v", r3.Response.Attempt)
	}
	if vs := validate.Inputs(rounds(r1, r2, r3), validate.Options{Chain: true}); validate.HasErrors(vs) {
		t.Fatalf("chain: %v", vs)
	}
	r4 := f.next(t, answer(1, 3, "a"), Policy{Budget: 7})
	if r4.Response.Attempt.N != 1 || r4.Response.Attempt.Budget != 7 || r4.Response.Findings[0].Status != agc.StatusNew {
		t.Fatalf("after an allow a block opens a new chain, with the budget input: %+v %s", r4.Response.Attempt, r4.Response.Findings[0].Status)
	}
	// A later budget input does not change the budget of an open chain.
	if r5 := f.next(t, answer(1, 3, "a"), Policy{Budget: 2}); r5.Response.Attempt.N != 2 || r5.Response.Attempt.Budget != 7 {
		t.Fatalf("round 5: %+v", r5.Response.Attempt)
	}
}

func TestReadTrustsOnlyOurAppAndCommitOrder(t *testing.T) {
	f := &fakeGitHub{}
	f.next(t, answer(1, 3, "a"), Policy{})
	// Another app's run on a later head (a forged round 3) is no round.
	forged := answer(3, 3, "a")
	forged.Verdict = agc.Block
	f.push(others, forged)
	nx := f.next(t, answer(1, 3, "a"), Policy{})
	if nx.Response.Attempt.N != 2 {
		t.Fatalf("round after a forged run: %+v", nx.Response.Attempt)
	}
	// Rounds are read below the head in the pull request's order: a run
	// on a later commit (a newer push whose run finished first) is not an
	// earlier round.
	later := sha(99)
	f.commits = append(f.commits, later)
	f.post(later, ours, answer(1, 3))
	head := f.commits[len(f.commits)-2]
	c, err := Read(context.Background(), f, ReadOptions{Gate: "lint", Head: head, PR: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Rounds) != 1 || c.Rounds[0].SHA != sha(1) {
		t.Fatalf("chain below %s: %+v", head[:7], c.Rounds)
	}
}

func TestCarriedRunIsNotANewRound(t *testing.T) {
	f := &fakeGitHub{}
	f.next(t, answer(1, 3, "a"), Policy{})
	judged := f.commits[0]
	// The verdict carried to a docs-only head: the same round.
	carriedTo := f.push(0, nil)
	raw, _ := agc.Encode(answer(1, 3, "a"))
	f.runs[carriedTo] = []carry.CheckRun{{ID: 900, AppID: ours, Name: "agc/lint", HeadSHA: carriedTo, Status: "completed", Conclusion: "failure",
		Response: raw, Binding: &carry.Binding{Gate: "lint", SHA: judged, CarriedTo: carriedTo}}}
	nx := f.next(t, answer(1, 3, "a"), Policy{})
	if nx.Response.Attempt.N != 2 {
		t.Fatalf("a carried verdict counted as a round: %+v", nx.Response.Attempt)
	}
}

func TestEscalation(t *testing.T) {
	t.Run("at the budget, no one named", func(t *testing.T) {
		f := &fakeGitHub{}
		r1 := f.next(t, answer(1, 2, "a"), Policy{})
		r2 := f.next(t, answer(1, 2, "a"), Policy{})
		e := r2.Escalation
		if r2.Response.Verdict != agc.Escalate || e == nil || e.N != 2 || e.Budget != 2 {
			t.Fatalf("round 2 of 2: %s %+v", r2.Response.Verdict, e)
		}
		if strings.Contains(e.Note(), "@") || !strings.Contains(e.Note(), "No one is named") {
			t.Errorf("note without escalate-to: %s", e.Note())
		}
		last := r2.Response.Findings[len(r2.Response.Findings)-1]
		if last.Remedy.Kind != agc.RemedyDecide || strings.Contains(last.Remedy.Ask, "@") || len(last.Remedy.Options) < 2 {
			t.Errorf("decide finding: %+v", last.Remedy)
		}
		if vs := validate.Inputs(rounds(r1, r2), validate.Options{Chain: true}); validate.HasErrors(vs) {
			t.Fatalf("chain: %v", vs)
		}
		// A push while the escalation stands is round 2 again, and still
		// escalates: the bound holds.
		again := f.next(t, answer(1, 2, "a"), Policy{})
		if again.Response.Attempt.N != 2 || again.Response.Verdict != agc.Escalate {
			t.Fatalf("after the escalation: %+v %s", again.Response.Attempt, again.Response.Verdict)
		}
		if vs := validate.Inputs(rounds(r1, again), validate.Options{Chain: true}); validate.HasErrors(vs) {
			t.Fatalf("chain with the round judged again: %v", vs)
		}
		// Fixed: allow ends the chain.
		if done := f.next(t, answer(1, 2), Policy{}); done.Response.Attempt.N != 2 || done.Response.Verdict != agc.Allow {
			t.Fatalf("fixed after the escalation: %+v %s", done.Response.Attempt, done.Response.Verdict)
		}
	})
	t.Run("early", func(t *testing.T) {
		f := &fakeGitHub{}
		f.next(t, answer(1, 5, "a", "b"), Policy{EscalateEarly: true})
		r2 := f.next(t, answer(1, 5, "a"), Policy{EscalateEarly: true})
		if r2.Response.Verdict != agc.Block {
			t.Fatalf("round 2: %s (a is still-open once)", r2.Response.Verdict)
		}
		r3 := f.next(t, answer(1, 5, "a"), Policy{EscalateEarly: true, EscalateTo: "octocat"})
		if r3.Response.Verdict != agc.Escalate || r3.Escalation == nil || !r3.Escalation.Early || strings.Count(r3.Escalation.Note(), "@octocat") != 1 {
			t.Fatalf("round 3: %s %+v", r3.Response.Verdict, r3.Escalation)
		}
		if !strings.Contains(r3.Escalation.Text(), "a stayed open over rounds 1–3") {
			t.Errorf("text: %s", r3.Escalation.Text())
		}
	})
}

func TestChainPastItsBudgetEscalates(t *testing.T) {
	f := &fakeGitHub{}
	f.push(ours, answer(1, 2, "a"))
	f.push(ours, answer(2, 2, "a")) // a block at the budget, posted as the gate counted it
	nx := f.next(t, answer(1, 2, "a"), Policy{})
	if nx.Response.Attempt.N != 3 || nx.Response.Attempt.Budget != 3 || nx.Response.Verdict != agc.Escalate {
		t.Fatalf("round after a block at the budget: %+v %s", nx.Response.Attempt, nx.Response.Verdict)
	}
	raw, _ := agc.Encode(nx.Response)
	if vs := validate.Bytes("r.json", raw, agc.Limits{}); validate.HasErrors(vs) {
		t.Errorf("the round breaks a rule: %v", vs)
	}
}

func TestNewGateVersionOpensANewChain(t *testing.T) {
	f := &fakeGitHub{}
	f.next(t, answer(1, 3, "a"), Policy{})
	r := answer(1, 3, "a")
	r.Gate.Version = "2"
	if nx := f.next(t, r, Policy{}); nx.Response.Attempt.N != 1 || nx.Response.Findings[0].Status != agc.StatusNew {
		t.Fatalf("a new gate version continued the chain: %+v", nx.Response.Attempt)
	}
}

func TestCountedRoundsAreChecked(t *testing.T) {
	f := &fakeGitHub{}
	f.next(t, answer(1, 3, "a"), Policy{})
	r := answer(3, 3, "a", "b")
	r.Findings[0].Status, r.Findings[1].Status = agc.StatusStillOpen, agc.StatusRegressed
	nx := f.next(t, r, Policy{EscalateTo: "acme/leads"})
	var rules []string
	for _, v := range nx.Violations {
		rules = append(rules, v.Rule+" "+v.Pointer)
	}
	slices.Sort(rules)
	if want := []string{"V9.chain-order /attempt/n", "V9.regressed-seen-carried /findings/1/status"}; !slices.Equal(rules, want) {
		t.Errorf("violations %v, want %v", rules, want)
	}
	if nx.Numbered || nx.Response.Attempt.N != 3 || nx.Response.Verdict != agc.Escalate {
		t.Errorf("a counted round at its budget keeps its n and escalates: %+v %s", nx.Response.Attempt, nx.Response.Verdict)
	}
}

func TestRoundList(t *testing.T) {
	for ns, want := range map[string]string{"3": "round 3", "1 3": "rounds 1 and 3", "1 2 3": "rounds 1–3", "1 2 4": "rounds 1–2 and 4", "1 3 5": "rounds 1, 3 and 5"} {
		var in []int
		for _, s := range strings.Fields(ns) {
			var n int
			fmt.Sscan(s, &n)
			in = append(in, n)
		}
		if got := roundList(in); got != want {
			t.Errorf("roundList(%v) = %q, want %q", in, got, want)
		}
	}
}

func TestCheckEscalateTo(t *testing.T) {
	for in, want := range map[string]string{"octocat": "octocat", "@octocat": "octocat", "acme/reviewers": "acme/reviewers", "a-b/c_d": "a-b/c_d"} {
		if got, err := CheckEscalateTo(in); err != nil || got != want {
			t.Errorf("CheckEscalateTo(%q) = %q, %v", in, got, err)
		}
	}
	for _, in := range []string{"", "@", "-x", "x-", "a--b", "a b", "a/b/c", "a/", "/b", "a/-b", "x](y)", "a@b", strings.Repeat("a", 40), "a\nb"} {
		if _, err := CheckEscalateTo(in); err == nil {
			t.Errorf("CheckEscalateTo(%q) accepted", in)
		}
	}
}
