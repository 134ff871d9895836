package bridge

import (
	"fmt"

	"github.com/agcgate/agc-action/agc"
	"github.com/go-json-experiment/json/jsontext"
)

// Copilot CLI tool hook events (the CLI hooks reference). Only preToolUse
// acts on a command hook's output.
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

func checkVerdict(r *agc.Response) error {
	switch r.Verdict {
	case agc.Allow, agc.Repaired, agc.Block, agc.Escalate:
		return nil
	}
	return fmt.Errorf("verdict %q is not one of allow, repaired, block, escalate", r.Verdict)
}
