package bridge

import (
	"github.com/agcgate/agc-action/agc"
)

// Codex CLI's hook outputs (docs/bridges.md, "Codex CLI"). Codex refuses
// more than its schema: at PreToolUse "ask", "allow", updatedInput (which
// needs "allow") and a deny without a reason all count as a failed hook, so
// this binding uses only "deny" with a reason and additionalContext.
type codexPre struct {
	HookSpecificOutput *codexPreSpecific `json:"hookSpecificOutput,omitzero"`
}

type codexPreSpecific struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision,omitzero"`
	PermissionDecisionReason string `json:"permissionDecisionReason,omitzero"`
	AdditionalContext        string `json:"additionalContext,omitzero"`
}

type codexPost struct {
	Decision           string            `json:"decision,omitzero"`
	Reason             string            `json:"reason,omitzero"`
	HookSpecificOutput codexPostSpecific `json:"hookSpecificOutput"`
}

type codexPostSpecific struct {
	HookEventName     string `json:"hookEventName"`
	AdditionalContext string `json:"additionalContext,omitzero"`
}

// CodexPreToolUse answers a Codex PreToolUse hook with r. Codex has no ask,
// and a rewrite (updatedInput) is only accepted with "allow", which would
// approve it: so a repair is downgraded (§6) to a deny whose reason names
// the input to send, and an escalation is a deny whose reason carries the
// decide remedy. The AGC JSON is in additionalContext whenever there is
// something to say.
func CodexPreToolUse(r *agc.Response, _ HookOptions) ([]byte, error) {
	if r.Verdict == agc.Allow && len(r.Findings) == 0 {
		return []byte("{}\n"), nil
	}
	if err := checkVerdict(r); err != nil {
		return nil, err
	}
	if r.Verdict == agc.Repaired {
		if _, err := replacement(r, true); err != nil {
			return nil, err
		}
		r = Downgrade(r, "Codex CLI")
	}
	ctx, err := hookContext(r)
	if err != nil {
		return nil, err
	}
	out := codexPreSpecific{HookEventName: EventPreToolUse, AdditionalContext: ctx}
	if r.Verdict != agc.Allow {
		text, err := renderText(r)
		if err != nil {
			return nil, err
		}
		out.PermissionDecision, out.PermissionDecisionReason = "deny", text
	}
	return marshalLine(codexPre{HookSpecificOutput: &out})
}

// CodexPostToolUse answers a Codex PostToolUse hook with r. The tool has
// run; Codex can replace only an MCP tool's output, so a repair is
// downgraded (§6) like every other failing verdict to the top-level
// decision "block" with the §12 rendering as the reason. The AGC JSON is in
// additionalContext every time.
func CodexPostToolUse(r *agc.Response, _ HookOptions) ([]byte, error) {
	if err := checkVerdict(r); err != nil {
		return nil, err
	}
	if r.Verdict == agc.Repaired {
		if _, err := replacement(r, false); err != nil {
			return nil, err
		}
		r = Downgrade(r, "Codex CLI")
	}
	ctx, err := hookContext(r)
	if err != nil {
		return nil, err
	}
	out := codexPost{HookSpecificOutput: codexPostSpecific{HookEventName: EventPostToolUse, AdditionalContext: ctx}}
	if r.Verdict != agc.Allow {
		text, err := renderText(r)
		if err != nil {
			return nil, err
		}
		out.Decision, out.Reason = "block", text
	}
	return marshalLine(out)
}
