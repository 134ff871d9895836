package carry

import (
	"strings"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/agcgate/agc-action/decide"
)

// TestBindingDecision: a person's decision rides in the binding record, is
// read back with it, and a record whose decision does not check is
// refused as a whole (a run without a readable record is never carried).
func TestBindingDecision(t *testing.T) {
	sha := strings.Repeat("a", 40)
	rec := decide.Record{By: "octocat", ByID: 1, Permission: "write", Option: "accept", Conclusion: "success",
		Reason: "accepted as is", Comment: 7, CommentedAt: "2026-01-02T03:04:05Z", Decided: 1001}
	b := Binding{Gate: "code-review", GateVersion: "1", SHA: sha, Commit: sha, Fingerprint: "sha256:00", Scope: []string{"src/**"},
		ScopeFrom: "scope", Entries: 1, Decision: &rec}
	got, err := ReadBinding(EmbedBinding(b))
	if err != nil || got == nil || got.Decision == nil || *got.Decision != rec {
		t.Fatalf("read back %+v, %v", got, err)
	}
	plain := b
	plain.Decision = nil
	if data, _ := json.Marshal(plain); strings.Contains(string(data), "decision") {
		t.Errorf("a binding without a decision names one: %s", data)
	}
	bad := rec
	bad.Conclusion = "failure" // not accept's
	b.Decision = &bad
	if got, err := ReadBinding(EmbedBinding(b)); err == nil || got != nil {
		t.Fatalf("a decision whose conclusion is not its option's reads: %+v", got)
	}
}
