package bridge

import (
	"fmt"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Copilot CLI tool hook events (the CLI hooks reference, and the types
// @github/copilot 1.0.102 embeds: copilot-sdk/types.d.ts).
const (
	CopilotPreToolUse  = "preToolUse"
	CopilotPostToolUse = "postToolUse"
)

type copilotPre struct {
	PermissionDecision       string         `json:"permissionDecision,omitzero"`
	PermissionDecisionReason string         `json:"permissionDecisionReason,omitzero"`
	ModifiedArgs             jsontext.Value `json:"modifiedArgs,omitzero"`
	AdditionalContext        string         `json:"additionalContext,omitzero"`
}

// CopilotPreToolUseAnswer answers a Copilot CLI preToolUse command hook
// with r: allow decides nothing (advisory findings go to additionalContext);
// repaired sends modifiedArgs and additionalContext naming what changed,
// never "allow" (opts.Ask adds "ask"); block sends "deny" with the §12
// rendering; escalate sends "ask" with the rendering as the reason.
func CopilotPreToolUseAnswer(r *agc.Response, opts HookOptions) ([]byte, error) {
	if r.Verdict == agc.Allow && len(r.Findings) == 0 {
		return []byte("{}\n"), nil
	}
	if err := checkVerdict(r); err != nil {
		return nil, err
	}
	text, err := renderText(r)
	if err != nil {
		return nil, err
	}
	ctx, err := hookContext(r)
	if err != nil {
		return nil, err
	}
	out := copilotPre{AdditionalContext: ctx}
	switch r.Verdict {
	case agc.Repaired:
		in, err := replacement(r, true)
		if err != nil {
			return nil, err
		}
		if in == nil {
			return CopilotPreToolUseAnswer(Downgrade(r, "Copilot CLI"), opts)
		}
		out.ModifiedArgs = in
		if opts.Ask {
			out.PermissionDecision, out.PermissionDecisionReason = "ask", repairedSummary(r)
		}
	case agc.Block:
		out.PermissionDecision, out.PermissionDecisionReason = "deny", text
	case agc.Escalate:
		out.PermissionDecision, out.PermissionDecisionReason = "ask", text
	}
	return marshalLine(out)
}

// copilotPost is PostToolUseHookOutput (@github/copilot 1.0.102,
// copilot-sdk/types.d.ts). Copilot CLI 1.0.102 gives the model
// modifiedResult.textResultForLlm in place of the tool's result, and then,
// in the same tool message, "Tool "NAME" succeeded. Additional guidance
// from postToolUse hooks:" and additionalContext. suppressOutput (the
// person's view) is never sent.
type copilotPost struct {
	ModifiedResult    *copilotResult `json:"modifiedResult,omitzero"`
	AdditionalContext string         `json:"additionalContext,omitzero"`
}

// copilotResult is ToolResultObject. A "failure" shows the person error as
// the call's outcome; the model still reads textResultForLlm.
type copilotResult struct {
	TextResultForLlm string `json:"textResultForLlm"`
	ResultType       string `json:"resultType"`
	Error            string `json:"error,omitzero"`
}

// CopilotPostToolUseAnswer answers a Copilot CLI postToolUse command hook
// with r. The tool has run and nothing here can undo what it did; what the
// hook decides is what the model reads of its result:
//
//   - allow: nothing ({}); advisory findings go to additionalContext;
//   - repaired: modifiedResult is the rewrite's input (a JSON string as its
//     text, anything else as compact JSON), as Claude Code's
//     updatedToolOutput; a repair made only by generate, which carries no
//     result, is downgraded (§6);
//   - block: the result is withheld: modifiedResult is a "failure" whose
//     text says the tool ran and its result is withheld, and whose error,
//     which the person sees, is the §12 rendering;
//   - escalate: the same (a postToolUse hook can neither ask nor stop the
//     agent), the rendering carrying the decide remedy (who to ask).
//
// Every answer but a clean allow has the rendering and the AGC JSON in
// additionalContext.
func CopilotPostToolUseAnswer(r *agc.Response, _ HookOptions) ([]byte, error) {
	if r.Verdict == agc.Allow && len(r.Findings) == 0 {
		return []byte("{}\n"), nil
	}
	if err := checkVerdict(r); err != nil {
		return nil, err
	}
	if r.Verdict == agc.Repaired {
		in, err := replacement(r, false)
		if err != nil {
			return nil, err
		}
		if in == nil {
			return CopilotPostToolUseAnswer(Downgrade(r, "Copilot CLI"), HookOptions{})
		}
		ctx, err := hookContext(r)
		if err != nil {
			return nil, err
		}
		text := compact(in)
		var s string
		if in.Kind() == '"' && json.Unmarshal(in, &s) == nil {
			text = s
		}
		return marshalLine(copilotPost{ModifiedResult: &copilotResult{TextResultForLlm: text, ResultType: "success"}, AdditionalContext: ctx})
	}
	ctx, err := hookContext(r)
	if err != nil {
		return nil, err
	}
	out := copilotPost{AdditionalContext: ctx}
	if r.Verdict != agc.Allow {
		text, err := renderText(r)
		if err != nil {
			return nil, err
		}
		out.ModifiedResult = withheld(diag.OneLine(fmt.Sprintf("gate %s answered %s", r.Gate.ID, r.Verdict)), text)
	}
	return marshalLine(out)
}

// withheld is the result that replaces a tool's result the gate did not
// let through: the model reads that it is withheld, and why in the
// additionalContext that follows; the person sees detail as the error.
func withheld(why, detail string) *copilotResult {
	return &copilotResult{
		TextResultForLlm: "AGC: this tool call has run, but its result is withheld: " + why +
			". What the call did is not undone; do not repeat it. Why follows.",
		ResultType: "failure",
		Error:      detail,
	}
}

func checkVerdict(r *agc.Response) error {
	switch r.Verdict {
	case agc.Allow, agc.Repaired, agc.Block, agc.Escalate:
		return nil
	}
	return fmt.Errorf("verdict %q is not one of allow, repaired, block, escalate", r.Verdict)
}
