package bridge

import (
	"github.com/agcgate/agc-action/agc"
	"github.com/go-json-experiment/json/jsontext"
)

// Gemini CLI tool hook events (docs/hooks/reference.md of @google/gemini-cli).
const (
	GeminiBeforeTool = "BeforeTool"
	GeminiAfterTool  = "AfterTool"
)

type geminiOutput struct {
	Continue           *bool           `json:"continue,omitzero"`
	StopReason         string          `json:"stopReason,omitzero"`
	Decision           string          `json:"decision,omitzero"`
	Reason             string          `json:"reason,omitzero"`
	SystemMessage      string          `json:"systemMessage,omitzero"`
	HookSpecificOutput *geminiSpecific `json:"hookSpecificOutput,omitzero"`
}

type geminiSpecific struct {
	ToolInput         jsontext.Value `json:"tool_input,omitzero"`
	AdditionalContext string         `json:"additionalContext,omitzero"`
}

// GeminiBeforeToolAnswer answers a Gemini CLI BeforeTool hook with r:
//
//   - allow: no decision; advisory findings are shown to the person
//     (systemMessage), since BeforeTool has no context for the model;
//   - repaired: hookSpecificOutput.tool_input, which Gemini merges over the
//     arguments and then runs through its own policy (no approval), and a
//     systemMessage naming what changed; opts.Ask adds decision "ask". A
//     rewrite that drops a member of opts.Original cannot be expressed by a
//     merge and is downgraded (§6);
//   - block: decision "deny", the §12 rendering as the reason (sent to the
//     agent as the tool's error);
//   - escalate: decision "ask" (honoured by Gemini CLI 0.61.0's scheduler,
//     which asks the person), with the rendering as systemMessage.
func GeminiBeforeToolAnswer(r *agc.Response, opts HookOptions) ([]byte, error) {
	if r.Verdict == agc.Allow && len(r.Findings) == 0 {
		return []byte("{}\n"), nil
	}
	if err := checkVerdict(r); err != nil {
		return nil, err
	}
	if r.Verdict == agc.Repaired {
		in, err := replacement(r, true)
		if err != nil {
			return nil, err
		}
		if in == nil || dropsMember(opts.Original, in) {
			r = Downgrade(r, "Gemini CLI")
		} else {
			out := geminiOutput{SystemMessage: repairedSummary(r), HookSpecificOutput: &geminiSpecific{ToolInput: in}}
			if opts.Ask {
				out.Decision = "ask"
			}
			return marshalLine(out)
		}
	}
	text, err := renderText(r)
	if err != nil {
		return nil, err
	}
	var out geminiOutput
	switch r.Verdict {
	case agc.Allow:
		out.SystemMessage = text
	case agc.Block:
		out.Decision, out.Reason = "deny", text
	case agc.Escalate:
		out.Decision, out.SystemMessage = "ask", text
	}
	return marshalLine(out)
}

// GeminiAfterToolAnswer answers a Gemini CLI AfterTool hook with r. The
// tool has run and AfterTool cannot rewrite its output, so a repair is
// downgraded (§6). block and a downgraded repair send decision "deny",
// whose reason replaces the tool result the model sees; escalate stops the
// agent loop ("continue": false) with the rendering as stopReason. The AGC
// JSON is in hookSpecificOutput.additionalContext every time.
func GeminiAfterToolAnswer(r *agc.Response, _ HookOptions) ([]byte, error) {
	if err := checkVerdict(r); err != nil {
		return nil, err
	}
	if r.Verdict == agc.Repaired {
		if _, err := replacement(r, false); err != nil {
			return nil, err
		}
		r = Downgrade(r, "Gemini CLI")
	}
	ctx, err := hookContext(r)
	if err != nil {
		return nil, err
	}
	text, err := renderText(r)
	if err != nil {
		return nil, err
	}
	out := geminiOutput{HookSpecificOutput: &geminiSpecific{AdditionalContext: ctx}}
	switch r.Verdict {
	case agc.Block:
		out.Decision, out.Reason = "deny", text
	case agc.Escalate:
		stop := false
		out.Continue, out.StopReason = &stop, text
	}
	return marshalLine(out)
}
