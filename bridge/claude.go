package bridge

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/agcgate/agc-action/render"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Claude Code hook event names (agc-runtime-bindings, "Claude Code").
const (
	EventPreToolUse  = "PreToolUse"
	EventPostToolUse = "PostToolUse"
)

// ClaudeOptions shape the hook answer.
type ClaudeOptions struct {
	// Ask sends permissionDecision "ask" with a PreToolUse repair, so the
	// person always sees the rewritten call. Without it a repair carries
	// no permission decision, and the person's permission settings decide.
	Ask bool
}

type preOutput struct {
	HookSpecificOutput *preSpecific `json:"hookSpecificOutput,omitzero"`
}

type preSpecific struct {
	HookEventName            string         `json:"hookEventName"`
	PermissionDecision       string         `json:"permissionDecision,omitzero"`
	PermissionDecisionReason string         `json:"permissionDecisionReason,omitzero"`
	UpdatedInput             jsontext.Value `json:"updatedInput,omitzero"`
	AdditionalContext        string         `json:"additionalContext,omitzero"`
}

type postOutput struct {
	Continue           *bool        `json:"continue,omitzero"`
	StopReason         string       `json:"stopReason,omitzero"`
	Decision           string       `json:"decision,omitzero"`
	Reason             string       `json:"reason,omitzero"`
	HookSpecificOutput postSpecific `json:"hookSpecificOutput"`
}

type postSpecific struct {
	HookEventName     string         `json:"hookEventName"`
	UpdatedToolOutput jsontext.Value `json:"updatedToolOutput,omitzero"`
	AdditionalContext string         `json:"additionalContext"`
}

// ClaudePreToolUse answers a Claude Code PreToolUse hook with r, which the
// caller has validated:
//
//   - allow: no permission decision; advisory findings, if any, go to the
//     model as additionalContext in the §12 rendering;
//   - repaired: updatedInput is the applied rewrite's input, and
//     additionalContext names what changed. permissionDecision is never
//     "allow" with a repair; opts.Ask adds "ask";
//   - block: permissionDecision "deny", the reason the §12 rendering;
//   - escalate: permissionDecision "ask", the reason the §12 rendering.
//
// The hook exits 0 with this JSON on stdout (exit 2 would lose updatedInput).
func ClaudePreToolUse(r *agc.Response, opts ClaudeOptions) ([]byte, error) {
	text, err := renderText(r)
	if err != nil {
		return nil, err
	}
	out := preSpecific{HookEventName: EventPreToolUse}
	switch r.Verdict {
	case agc.Allow:
		if len(r.Findings) == 0 {
			return []byte("{}\n"), nil
		}
		out.AdditionalContext = text
	case agc.Repaired:
		in, err := replacement(r, true)
		if err != nil {
			return nil, err
		}
		out.UpdatedInput = in
		out.AdditionalContext = repairedSummary(r) + "\n\n" + text
		if opts.Ask {
			out.PermissionDecision = "ask"
			out.PermissionDecisionReason = repairedSummary(r)
		}
	case agc.Block:
		out.PermissionDecision, out.PermissionDecisionReason = "deny", text
	case agc.Escalate:
		out.PermissionDecision, out.PermissionDecisionReason = "ask", text
	default:
		return nil, fmt.Errorf("verdict %q is not one of allow, repaired, block, escalate", r.Verdict)
	}
	return marshalLine(preOutput{HookSpecificOutput: &out})
}

// ClaudePostToolUse answers a Claude Code PostToolUse hook with r. The tool
// has already run: repaired replaces its result with updatedToolOutput,
// block sends the top-level decision "block" with the §12 rendering as the
// reason, and escalate stops Claude ("continue": false) with the rendering
// as stopReason, handing the loop to the person. The AGC JSON is in
// additionalContext every time.
func ClaudePostToolUse(r *agc.Response, opts ClaudeOptions) ([]byte, error) {
	text, err := renderText(r)
	if err != nil {
		return nil, err
	}
	js, err := json.Marshal(r, json.Deterministic(true))
	if err != nil {
		return nil, fmt.Errorf("encode the AGC response: %w", err)
	}
	out := postOutput{HookSpecificOutput: postSpecific{HookEventName: EventPostToolUse, AdditionalContext: string(js)}}
	switch r.Verdict {
	case agc.Allow:
	case agc.Repaired:
		in, err := replacement(r, false)
		if err != nil {
			return nil, err
		}
		out.HookSpecificOutput.UpdatedToolOutput = in
	case agc.Block:
		out.Decision, out.Reason = "block", text
	case agc.Escalate:
		stop := false
		out.Continue, out.StopReason = &stop, text
	default:
		return nil, fmt.Errorf("verdict %q is not one of allow, repaired, block, escalate", r.Verdict)
	}
	return marshalLine(out)
}

func renderText(r *agc.Response) (string, error) {
	var b strings.Builder
	if err := render.Text(&b, r); err != nil {
		return "", fmt.Errorf("render the AGC response: %w", err)
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// replacement is the one replacement the applied rewrite remedies of a
// repaired response carry (nil when every repair is a generate). Rewrites
// that disagree, and inputs that only reference content by digest, are
// errors: the runtime would run something the gate never produced.
func replacement(r *agc.Response, needObject bool) (jsontext.Value, error) {
	var in jsontext.Value
	for _, f := range r.Blocking() {
		m := f.Remedy
		if !m.IsApplied() || (m.Kind != agc.RemedyRewrite && m.Kind != agc.RemedyGenerate) {
			return nil, fmt.Errorf("finding %s: a repaired response's blocking finding has no applied rewrite or generate remedy", f.ID)
		}
		if m.Kind != agc.RemedyRewrite {
			continue
		}
		if isDigestReference(m) {
			return nil, fmt.Errorf("finding %s: the rewrite names its replacement only by digest (%s %q); the content is not known, so it cannot become the tool's input", f.ID, NoteInputKind, InputKindDigestReference)
		}
		if needObject && m.Input.Kind() != '{' {
			return nil, fmt.Errorf("finding %s: the rewrite input is %s; a tool's input is a JSON object", f.ID, agc.KindName(byte(m.Input.Kind())))
		}
		if in != nil && !sameJSON(in, m.Input) {
			return nil, fmt.Errorf("finding %s: its rewrite input differs from another finding's; a call has one input", f.ID)
		}
		in = m.Input
	}
	return in, nil
}

func isDigestReference(m agc.Remedy) bool {
	if len(m.Unknown) == 0 {
		return false
	}
	var ext map[string]jsontext.Value
	if json.Unmarshal(m.Unknown, &ext) != nil {
		return false
	}
	v, ok := ext[NoteInputKind]
	return ok && bytes.Equal(v, quote(InputKindDigestReference))
}

func sameJSON(a, b jsontext.Value) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ca, _ := json.Marshal(x, json.Deterministic(true))
	cb, _ := json.Marshal(y, json.Deterministic(true))
	return bytes.Equal(ca, cb)
}

// repairedSummary names what changed, one line per repaired finding, as
// the binding's example does: "AGC repaired: ID — what".
func repairedSummary(r *agc.Response) string {
	var lines []string
	for _, f := range r.Blocking() {
		lines = append(lines, fmt.Sprintf("AGC repaired: %s — %s", diag.OneLine(f.ID), diag.OneLine(f.What)))
	}
	return strings.Join(lines, "\n")
}

func marshalLine(v any) ([]byte, error) {
	b, err := json.Marshal(v, json.Deterministic(true))
	if err != nil {
		return nil, fmt.Errorf("encode the hook answer: %w", err)
	}
	return append(b, '\n'), nil
}
