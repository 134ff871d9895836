package rounds

import (
	"context"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/carry"
	"github.com/agcgate/agc-action/decide"
)

// TestDecisionEndsTheChain: a run whose binding record holds a person's
// decision ends the chain: the next block opens a new one at round 1,
// whatever rounds came before the decision.
func TestDecisionEndsTheChain(t *testing.T) {
	f := &fakeGitHub{}
	f.next(t, answer(1, 3, "a"), Policy{})
	decided := f.next(t, answer(1, 3, "a"), Policy{}) // round 2
	if decided.Response.Attempt.N != 2 {
		t.Fatalf("round %d, want 2", decided.Response.Attempt.N)
	}
	head := f.commits[len(f.commits)-1]
	runs := f.runs[head]
	run := runs[len(runs)-1]
	run.ID++
	run.Conclusion = "success"
	run.Binding = &carry.Binding{Gate: "lint", SHA: head, Commit: head, Fingerprint: "sha256:x", Scope: []string{"**"}, Entries: 1,
		Decision: &decide.Record{By: "octocat", ByID: 1, Permission: "write", Option: "accept", Conclusion: "success", Reason: "fine",
			Comment: 7, CommentedAt: "2026-01-02T03:04:05Z", Decided: runs[len(runs)-1].ID}}
	f.runs[head] = append(f.runs[head], run)

	next := f.push(0, nil)
	c, err := Read(context.Background(), f, ReadOptions{Gate: "lint", Head: next, PR: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Rounds) != 0 || !strings.Contains(strings.Join(c.Notes, "\n"), "records a decision by octocat") {
		t.Fatalf("rounds %d after a decision, notes %q", len(c.Rounds), c.Notes)
	}
	if nx := f.next(t, answer(1, 3, "a"), Policy{}); nx.Response.Attempt.N != 1 {
		t.Fatalf("after a decision the next block is round %d, want 1", nx.Response.Attempt.N)
	}
}
