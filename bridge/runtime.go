package bridge

import (
	"fmt"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Agent runtimes whose command hooks an AGC gate can answer
// (docs/bridges.md, "Agent runtimes").
const (
	RuntimeClaude  = "claude"
	RuntimeCodex   = "codex"
	RuntimeGemini  = "gemini"
	RuntimeCopilot = "copilot"
)

// Runtimes lists the runtimes in the order the documentation gives them.
var Runtimes = []string{RuntimeClaude, RuntimeCodex, RuntimeGemini, RuntimeCopilot}

// Phase is when a tool hook fires: before the tool runs, or after.
type Phase int

// The two phases of a tool hook.
const (
	Pre Phase = iota
	Post
)

// HookOptions shape every runtime's hook answer.
type HookOptions struct {
	// Ask sends the runtime's "ask" with a repair where the runtime has
	// one, so the person always sees the rewritten call.
	Ask bool
	// Original is the tool input the runtime sent, when known. A runtime
	// that merges a rewrite over the arguments (Gemini CLI) cannot drop a
	// member: a rewrite that does gets the §6 downgrade instead.
	Original jsontext.Value
}

// Event is the runtime's own name of the hook event of phase p, "" when the
// runtime has no command hook that acts on its answer in that phase.
func Event(runtime string, p Phase) string {
	switch runtime {
	case RuntimeClaude, RuntimeCodex:
		return [...]string{EventPreToolUse, EventPostToolUse}[p]
	case RuntimeGemini:
		return [...]string{GeminiBeforeTool, GeminiAfterTool}[p]
	case RuntimeCopilot:
		return [...]string{CopilotPreToolUse, CopilotPostToolUse}[p]
	}
	return ""
}

// ParseEvent reads an event name for runtime: its own name, or the
// runtime-neutral PreToolUse / PostToolUse.
func ParseEvent(runtime, name string) (Phase, error) {
	for _, p := range []Phase{Pre, Post} {
		ev := Event(runtime, p)
		if ev != "" && (name == ev || name == [...]string{EventPreToolUse, EventPostToolUse}[p]) {
			return p, nil
		}
	}
	var names []string
	for _, p := range []Phase{Pre, Post} {
		if ev := Event(runtime, p); ev != "" {
			names = append(names, ev)
		}
	}
	return 0, fmt.Errorf("event %q is not a %s tool hook event (%s)", name, runtime, strings.Join(names, ", "))
}

// HookAnswer is the hook output of runtime for phase p carrying r, which
// the caller has validated. The verdict mapping is one for every runtime
// (docs/bridges.md): allow decides nothing; repaired rewrites the input
// and says what changed, never approving it, or, where the runtime cannot
// carry the rewrite, is downgraded (§6) to a block; block denies with the
// §12 rendering; escalate asks, or denies with the decide remedy where
// the runtime cannot ask.
func HookAnswer(runtime string, p Phase, r *agc.Response, opts HookOptions) ([]byte, error) {
	// The gate id is shown to the model and the person in agc-sarif's own
	// words ("gate ID answered block"): one that could break a line could
	// pass for them.
	if err := agc.CheckGateID(r.Gate.ID); err != nil {
		return nil, fmt.Errorf("the gate's answer names a gate id agc-sarif does not show: %w", err)
	}
	switch {
	case runtime == RuntimeClaude && p == Pre:
		return ClaudePreToolUse(r, ClaudeOptions{Ask: opts.Ask})
	case runtime == RuntimeClaude:
		return ClaudePostToolUse(r, ClaudeOptions{Ask: opts.Ask})
	case runtime == RuntimeCodex && p == Pre:
		return CodexPreToolUse(r, opts)
	case runtime == RuntimeCodex:
		return CodexPostToolUse(r, opts)
	case runtime == RuntimeGemini && p == Pre:
		return GeminiBeforeToolAnswer(r, opts)
	case runtime == RuntimeGemini:
		return GeminiAfterToolAnswer(r, opts)
	case runtime == RuntimeCopilot && p == Pre:
		return CopilotPreToolUseAnswer(r, opts)
	case runtime == RuntimeCopilot:
		return CopilotPostToolUseAnswer(r, opts)
	}
	return nil, fmt.Errorf("%s has no tool hook that acts on its answer in this phase", runtime)
}

// Denial is the answer that fails closed in runtime when the gate gave no
// valid AGC answer: the bytes for stdout and the exit code. Claude Code,
// Codex and Gemini CLI block on exit 2 and show stderr; Copilot CLI logs and
// skips a failing hook, so there the denial is JSON with exit 0: before the
// tool a deny, after it (where a permission decision is ignored) the
// result withheld.
func Denial(runtime string, p Phase, reason string) (stdout []byte, exit int) {
	if runtime == RuntimeCopilot && p == Pre {
		b, _ := marshalLine(copilotPre{PermissionDecision: "deny", PermissionDecisionReason: reason})
		return b, 0
	}
	if runtime == RuntimeCopilot {
		b, _ := marshalLine(copilotPost{ModifiedResult: withheld("the AGC hook has no valid answer from its gate", reason), AdditionalContext: reason})
		return b, 0
	}
	return nil, 2
}

// Downgrade is r with every repaired finding turned into the strongest
// remedy a runtime that cannot apply the rewrite can carry, and the
// verdict block (§6: "MUST downgrade that finding to the strongest remedy
// it can carry ... and return block"). A rewrite of a shell command (an
// input with a string "command") becomes a command remedy running it;
// any other rewrite or generate becomes a delegate to the agent that made
// the call, quoting the input it should send.
func Downgrade(r *agc.Response, runtime string) *agc.Response {
	d := *r
	d.Findings = make([]agc.Finding, len(r.Findings))
	copy(d.Findings, r.Findings)
	for i := range d.Findings {
		f := &d.Findings[i]
		if f.Severity != agc.Blocking || !f.Remedy.IsApplied() {
			continue
		}
		switch f.Remedy.Kind {
		case agc.RemedyRewrite, agc.RemedyGenerate:
			f.Remedy = downgraded(f.Remedy, runtime)
		}
	}
	d.Verdict = agc.Block
	return &d
}

func downgraded(m agc.Remedy, runtime string) agc.Remedy {
	if m.Kind == agc.RemedyRewrite && !isDigestReference(m) {
		var in map[string]jsontext.Value
		if json.Unmarshal(m.Input, &in) == nil {
			var cmd string
			if json.Unmarshal(in["command"], &cmd) == nil && cmd != "" && len(in) <= 2 {
				return agc.Remedy{Kind: agc.RemedyCommand, Run: cmd}
			}
		}
		return delegate("the agent that made the call",
			fmt.Sprintf("AGC §6: %s cannot apply this rewrite; call the tool again with input %s", runtime, compact(m.Input)))
	}
	return delegate("the agent that made the call",
		fmt.Sprintf("AGC §6: %s cannot apply this repair (%s %s); make it and call again", runtime, m.Kind, m.Tool))
}

func compact(v jsontext.Value) string {
	c := v.Clone()
	if err := c.Compact(); err != nil {
		return string(v)
	}
	return string(c)
}

// context is the text a runtime's context field carries: the repaired
// lines (for a repair), the §12 rendering, and the AGC response as compact
// JSON, so that the model reads the reason and a program reads the answer.
func hookContext(r *agc.Response) (string, error) {
	text, err := renderText(r)
	if err != nil {
		return "", err
	}
	// EscapeForJS: U+2028 and U+2029, which some readers take for line
	// breaks, are written escaped, so the JSON stays on its one line.
	js, err := json.Marshal(r, json.Deterministic(true), jsontext.EscapeForJS(true))
	if err != nil {
		return "", fmt.Errorf("encode the AGC response: %w", err)
	}
	if r.Verdict == agc.Repaired {
		text = repairedSummary(r) + "\n\n" + text
	}
	return text + "\n\nAGC: " + string(js), nil
}

// dropsMember reports whether the rewrite in lacks a member of the
// original input: a merge over the arguments would keep it.
func dropsMember(original, in jsontext.Value) bool {
	if len(original) == 0 {
		return false
	}
	var a, b map[string]jsontext.Value
	if json.Unmarshal(original, &a) != nil || json.Unmarshal(in, &b) != nil {
		return false
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			return true
		}
	}
	return false
}
