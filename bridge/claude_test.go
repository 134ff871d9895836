package bridge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/internal/testkit"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
)

// hookJSON decodes a hook answer into a generic value.
func hookJSON(t *testing.T, b []byte) map[string]any {
	t.Helper()
	if len(b) == 0 || b[len(b)-1] != '\n' {
		t.Fatalf("hook answer does not end with a newline: %q", b)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("hook answer is not one JSON object: %v\n%s", err, b)
	}
	return m
}

func specific(m map[string]any) map[string]any {
	s, _ := m["hookSpecificOutput"].(map[string]any)
	return s
}

// Binding field names: PreToolUse answers only with these members.
var (
	preTop      = []string{"hookSpecificOutput"}
	preSpecKeys = []string{"hookEventName", "permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"}
	postTop     = []string{"continue", "stopReason", "decision", "reason", "hookSpecificOutput"}
	postSpec    = []string{"hookEventName", "updatedToolOutput", "additionalContext"}
)

func onlyKeys(t *testing.T, what string, m map[string]any, allowed []string) {
	t.Helper()
	for k := range m {
		if !contains(allowed, k) {
			t.Errorf("%s has member %q, which the binding does not name", what, k)
		}
	}
}

func TestClaudePreToolUse(t *testing.T) {
	repaired := testkit.Response(t, "../fixtures/agc/valid/repaired-rewrite.json")
	tests := []struct {
		name     string
		r        *agc.Response
		opts     ClaudeOptions
		decision string // "" means no permissionDecision
		updated  bool
	}{
		{"repaired", repaired, ClaudeOptions{}, "", true},
		{"repaired ask", repaired, ClaudeOptions{Ask: true}, "ask", true},
		{"block", testkit.Response(t, "../fixtures/agc/valid/block-patch.json"), ClaudeOptions{}, "deny", false},
		{"block ask", testkit.Response(t, "../fixtures/agc/valid/block-patch.json"), ClaudeOptions{Ask: true}, "deny", false},
		{"escalate", testkit.Response(t, "../fixtures/agc/valid/escalate-review.json"), ClaudeOptions{}, "ask", false},
		{"allow", testkit.Response(t, "../fixtures/agc/valid/allow-empty.json"), ClaudeOptions{}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := ClaudePreToolUse(tt.r, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			m := hookJSON(t, b)
			onlyKeys(t, "the answer", m, preTop)
			s := specific(m)
			if tt.r.Verdict == agc.Allow && len(tt.r.Findings) == 0 {
				if len(m) != 0 {
					t.Errorf("a clean allow answers {}, got %s", b)
				}
				return
			}
			onlyKeys(t, "hookSpecificOutput", s, preSpecKeys)
			if s["hookEventName"] != EventPreToolUse {
				t.Errorf("hookEventName %v", s["hookEventName"])
			}
			if got, _ := s["permissionDecision"].(string); got != tt.decision {
				t.Errorf("permissionDecision %q, want %q", got, tt.decision)
			}
			if s["permissionDecision"] == "allow" {
				t.Error("permissionDecision allow: a gate never approves a call")
			}
			_, has := s["updatedInput"]
			if has != tt.updated {
				t.Errorf("updatedInput present %v, want %v", has, tt.updated)
			}
			if tt.updated {
				want := map[string]any{"command": "cd /work/.worktrees/metrics-fix/backend && git status"}
				if d := cmp.Diff(want, s["updatedInput"]); d != "" {
					t.Errorf("updatedInput (-want +got):\n%s", d)
				}
				ctx, _ := s["additionalContext"].(string)
				if !strings.HasPrefix(ctx, "AGC repaired: workstream-isolation/main-checkout-access/Bash.command — ") {
					t.Errorf("additionalContext does not name what changed: %q", ctx)
				}
			}
			if tt.decision == "deny" || tt.decision == "ask" && !tt.updated {
				reason, _ := s["permissionDecisionReason"].(string)
				assertRendering(t, reason, tt.r)
			}
		})
	}
}

// assertRendering: the reason is the §12 rendering: each finding's what,
// why, remedy and check, in that order.
func assertRendering(t *testing.T, text string, r *agc.Response) {
	t.Helper()
	for _, f := range r.Findings {
		i, j := strings.Index(text, f.What), strings.Index(text, f.Why)
		k := strings.Index(text[max(j, 0):], "remedy:")
		if i < 0 || j < i || k < 0 || !strings.Contains(text[j:], "check:") {
			t.Errorf("reason is not the §12 rendering of finding %s:\n%s", f.ID, text)
		}
	}
}

// TestRepairNeverAutoApproved: over every repaired response the bridges
// and fixtures produce, no answer carries permissionDecision "allow".
func TestRepairNeverAutoApproved(t *testing.T) {
	rs := []*agc.Response{testkit.Response(t, "../fixtures/agc/valid/repaired-rewrite.json")}
	for _, ask := range []bool{false, true} {
		for _, r := range rs {
			b, err := ClaudePreToolUse(r, ClaudeOptions{Ask: ask})
			if err != nil {
				t.Fatal(err)
			}
			if d := specific(hookJSON(t, b))["permissionDecision"]; d == "allow" {
				t.Fatalf("repair auto-approved: %s", b)
			}
		}
	}
}

func TestClaudePostToolUse(t *testing.T) {
	for _, tt := range []struct {
		file                    string
		decision                string
		updated, stops, context bool
	}{
		{"repaired-rewrite.json", "", true, false, true},
		{"block-patch.json", "block", false, false, true},
		{"escalate-review.json", "", false, true, true},
		{"allow-empty.json", "", false, false, true},
	} {
		t.Run(tt.file, func(t *testing.T) {
			r := testkit.Response(t, filepath.Join("../fixtures/agc/valid", tt.file))
			b, err := ClaudePostToolUse(r, ClaudeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			m := hookJSON(t, b)
			onlyKeys(t, "the answer", m, postTop)
			s := specific(m)
			onlyKeys(t, "hookSpecificOutput", s, postSpec)
			if s["hookEventName"] != EventPostToolUse {
				t.Errorf("hookEventName %v", s["hookEventName"])
			}
			if got, _ := m["decision"].(string); got != tt.decision {
				t.Errorf("decision %q, want %q", got, tt.decision)
			}
			if tt.decision == "block" {
				assertRendering(t, m["reason"].(string), r)
			}
			if _, has := s["updatedToolOutput"]; has != tt.updated {
				t.Errorf("updatedToolOutput present %v", has)
			}
			if stop, ok := m["continue"]; ok != tt.stops || ok && stop != false {
				t.Errorf("continue %v, want stop %v", stop, tt.stops)
			}
			ctx, _ := s["additionalContext"].(string)
			back, err := agc.Decode("additionalContext", []byte(ctx), agc.Limits{})
			if err != nil {
				t.Fatalf("additionalContext is not the AGC JSON: %v", err)
			}
			if d := cmp.Diff(r, back, cmp.Comparer(func(a, b jsontext.Value) bool { return sameJSON(a, b) || len(a)+len(b) == 0 })); d != "" {
				t.Errorf("additionalContext differs from the response (-want +got):\n%s", d)
			}
		})
	}
}

// TestReceiptRepairNotForwarded: a receipt's repair names its replacement
// by digest only; it can never become a tool's input.
func TestReceiptRepairNotForwarded(t *testing.T) {
	path := filepath.Join(fixtureRoot, "gate-receipt", "repair-1.json")
	data, _ := os.ReadFile(path)
	r, _, err := FromReceipt(path, data)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ClaudePreToolUse(r, ClaudeOptions{}); err == nil || !strings.Contains(err.Error(), "only by digest") {
		t.Errorf("PreToolUse: %v, want a digest-reference error", err)
	}
	if _, err := ClaudePostToolUse(r, ClaudeOptions{}); err == nil {
		t.Error("PostToolUse forwarded a digest reference")
	}
}

func TestReplacementConflicts(t *testing.T) {
	r := testkit.Response(t, "../fixtures/agc/valid/repaired-rewrite.json")
	f := r.Findings[0]
	f.ID, f.Remedy.Input = f.ID+"-2", jsontext.Value(`{"command":"true"}`)
	r.Findings = append(r.Findings, f)
	if _, err := ClaudePreToolUse(r, ClaudeOptions{}); err == nil || !strings.Contains(err.Error(), "differs") {
		t.Errorf("two different rewrites: %v", err)
	}
	r.Findings[1].Remedy.Input = jsontext.Value(`"a string"`)
	if _, err := ClaudePreToolUse(r, ClaudeOptions{}); err == nil || !strings.Contains(err.Error(), "JSON object") {
		t.Errorf("non-object input: %v", err)
	}
	r.Verdict = "maybe"
	if _, err := ClaudePostToolUse(r, ClaudeOptions{}); err == nil {
		t.Error("unknown verdict accepted")
	}
}

// TestBridgedAnswers: every bridged fixture that is not a receipt repair
// gives a hook answer for both events.
func TestBridgedAnswers(t *testing.T) {
	for _, fx := range allBridged(t) {
		if fx.r.Verdict == agc.Repaired {
			continue
		}
		for _, f := range []func(*agc.Response, ClaudeOptions) ([]byte, error){ClaudePreToolUse, ClaudePostToolUse} {
			b, err := f(fx.r, ClaudeOptions{})
			if err != nil {
				t.Fatalf("%s: %v", fx.path, err)
			}
			if d := specific(hookJSON(t, b))["permissionDecision"]; d == "allow" {
				t.Errorf("%s: permissionDecision allow", fx.path)
			}
		}
	}
}
