package formats

import (
	"fmt"
	"io"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/bridge"
	"github.com/agcgate/agc-action/diag"
)

// Bridges are the formats of neighbouring gate systems and runtimes
// (docs/bridges.md).
func Bridges() []Format {
	return []Format{
		{Name: "agent-protocol", Help: "an agent's message ending in a fenced json:contract block (agent-protocol)", Detect: bridge.LooksLikeAgentProtocol, Read: bridgeReader(bridge.FromAgentProtocol)},
		{Name: "gate-receipt", Help: "an action-admission Receipt as its as_dict() JSON", Detect: bridge.LooksLikeReceipt, Read: bridgeReader(bridge.FromReceipt)},
		{Name: "fourgate", Help: "a Fourgate verifier result or outcome verdict", Detect: bridge.LooksLikeFourgate, Read: bridgeReader(bridge.FromFourgate)},
		{Name: "claude-pre-tool-use", Help: "the JSON a Claude Code PreToolUse hook prints", Write: claudeWriter(bridge.ClaudePreToolUse)},
		{Name: "claude-post-tool-use", Help: "the JSON a Claude Code PostToolUse hook prints", Write: claudeWriter(bridge.ClaudePostToolUse)},
		{Name: "codex-pre-tool-use", Help: "the JSON a Codex CLI PreToolUse hook prints", Write: hookWriter(bridge.RuntimeCodex, bridge.Pre)},
		{Name: "codex-post-tool-use", Help: "the JSON a Codex CLI PostToolUse hook prints", Write: hookWriter(bridge.RuntimeCodex, bridge.Post)},
		{Name: "gemini-before-tool", Help: "the JSON a Gemini CLI BeforeTool hook prints", Write: hookWriter(bridge.RuntimeGemini, bridge.Pre)},
		{Name: "gemini-after-tool", Help: "the JSON a Gemini CLI AfterTool hook prints", Write: hookWriter(bridge.RuntimeGemini, bridge.Post)},
		{Name: "copilot-pre-tool-use", Help: "the JSON a Copilot CLI preToolUse command hook prints", Write: hookWriter(bridge.RuntimeCopilot, bridge.Pre)},
		{Name: "copilot-post-tool-use", Help: "the JSON a Copilot CLI postToolUse command hook prints", Write: hookWriter(bridge.RuntimeCopilot, bridge.Post)},
	}
}

func bridgeReader(from func(string, []byte) (*agc.Response, []diag.Lint, error)) func(string, []byte, ReadOptions) ([]*agc.Response, []diag.Lint, error) {
	return func(file string, data []byte, _ ReadOptions) ([]*agc.Response, []diag.Lint, error) {
		r, lints, err := from(file, data)
		if err != nil {
			return nil, nil, err
		}
		return []*agc.Response{r}, lints, nil
	}
}

func claudeWriter(to func(*agc.Response, bridge.ClaudeOptions) ([]byte, error)) func(io.Writer, []*agc.Response, WriteOptions) error {
	return func(w io.Writer, rs []*agc.Response, opts WriteOptions) error {
		if len(rs) != 1 {
			return fmt.Errorf("a Claude Code hook answers one tool call: got %d responses", len(rs))
		}
		b, err := to(rs[0], bridge.ClaudeOptions{Ask: opts.Ask})
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}
}

func hookWriter(runtime string, p bridge.Phase) func(io.Writer, []*agc.Response, WriteOptions) error {
	return func(w io.Writer, rs []*agc.Response, opts WriteOptions) error {
		if len(rs) != 1 {
			return fmt.Errorf("a %s hook answers one tool call: got %d responses", runtime, len(rs))
		}
		b, err := bridge.HookAnswer(runtime, p, rs[0], bridge.HookOptions{Ask: opts.Ask})
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}
}
