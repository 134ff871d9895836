package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/bridge"
	"github.com/agcgate/agc-action/internal/logsafe"
	"github.com/agcgate/agc-action/validate"
	"github.com/go-json-experiment/json"
)

// Bounds of the hook command.
const (
	maxHookPayload = 16 << 20 // the hook input the runtime sends
	maxGateAnswer  = 16 << 20 // what the gate may print on stdout
	maxGateStderr  = 64 << 10 // gate stderr passed on
)

// hookTimeouts are the default --timeout per runtime, each under the
// runtime's own default hook timeout (docs/bridges.md): a hook the runtime
// kills is a non-blocking error and the call would run unjudged; this one
// ends first and fails closed. Claude Code: 60 s in some versions; Codex
// CLI: 600 s; Gemini CLI: 60 s; Copilot CLI: 30 s.
var hookTimeouts = map[string]time.Duration{
	bridge.RuntimeClaude:  45 * time.Second,
	bridge.RuntimeCodex:   45 * time.Second,
	bridge.RuntimeGemini:  45 * time.Second,
	bridge.RuntimeCopilot: 25 * time.Second,
}

// exitHookBlock is the exit code with which Claude Code, Codex CLI and
// Gemini CLI block the call and show stderr. The hook uses it only when it
// has no valid AGC answer to give: it fails closed. (Copilot CLI skips a
// failing hook, so there the hook prints a denial instead: bridge.Denial.)
const exitHookBlock = 2

// failClosed ends the reason the hook gives when it has no valid answer:
// before the tool the call is blocked; after it, the tool has run.
var failClosed = [...]string{bridge.Pre: "; failing closed: the call is blocked", bridge.Post: "; failing closed"}

// runtimeAuto asks the hook to recognise the runtime from its payload.
const runtimeAuto = "auto"

// hookRun is one parsed hook command.
type hookRun struct {
	runtime string // a bridge runtime, or runtimeAuto
	event   string // as given; "" for auto without --event
	gate    []string
	timeout time.Duration
	opts    bridge.HookOptions
}

// runHook implements "agc-sarif hook RUNTIME --event E [--ask] -- GATE...":
// run an AGC gate in preview mode on a runtime's tool hook input and answer
// the runtime with the hook JSON of its verdict (docs/bridges.md).
//
// Exit 0 with JSON on stdout whenever the gate gave a valid AGC answer,
// whatever its verdict (a repair must travel as JSON). Without a valid
// answer (bad usage, an unreadable hook input, a gate that cannot start,
// times out, prints too much, or prints anything but one valid AGC
// response) the hook fails closed the way the runtime blocks: exit 2 with
// the reason on stderr, or for Copilot CLI a denial on stdout.
func runHook(e *Env, args []string) int {
	h, code, ok := parseHook(e, args)
	if !ok {
		// Copilot CLI skips a hook that exits non-zero: a misconfigured
		// hook there still denies the call.
		if len(args) > 0 && args[0] == bridge.RuntimeCopilot && code == ExitUsage {
			p := usagePhase(args)
			deny, _ := bridge.Denial(bridge.RuntimeCopilot, p, "agc-sarif hook: bad usage (see stderr)"+failClosed[p])
			if writeOut(e, deny, false) == nil {
				return ExitOK // a non-zero exit would make Copilot ignore the denial
			}
		}
		return code
	}
	payload, err := e.ReadInput("-", maxHookPayload)
	runtime, phase := h.runtime, bridge.Pre
	if runtime != runtimeAuto {
		phase, _ = bridge.ParseEvent(runtime, h.event) // parseHook checked it
	}
	if err == nil {
		runtime, phase, err = hookTarget(e, h, payload)
	}
	var out []byte
	if err == nil {
		out, err = hookAnswer(e, h, runtime, phase, payload)
	}
	if err != nil {
		msg := fmt.Sprintf("agc-sarif hook: %v%s", err, failClosed[phase])
		_ = printLine(e.Stderr, msg)
		deny, exit := bridge.Denial(runtime, phase, msg)
		if len(deny) > 0 && writeOut(e, deny, false) != nil {
			return exitHookBlock
		}
		return exit
	}
	if err := writeOut(e, out, false); err != nil {
		_ = printLine(e.Stderr, fmt.Sprintf("agc-sarif hook: write: %v", err))
		return exitHookBlock
	}
	return ExitOK
}

func parseHook(e *Env, args []string) (hookRun, int, bool) {
	fs := newFlags(e, "hook", "claude|codex|gemini|copilot|auto --event EVENT [--ask] [--timeout D] -- GATE-COMMAND [ARG...]")
	event := fs.String("event", "", "the hook event: PreToolUse or PostToolUse, or the runtime's own name (BeforeTool, AfterTool, preToolUse, postToolUse); required but for auto")
	ask := fs.Bool("ask", false, "with a repair, also send the runtime's \"ask\" (Claude Code, Gemini CLI, Copilot CLI), so the person sees the rewritten call")
	timeout := fs.Duration("timeout", 0, "how long the gate may run (default: under the runtime's own hook timeout, see docs/bridges.md)")
	own, gate := cutArgs(args)
	pos, code, ok := parseArgs(fs, own)
	if !ok {
		return hookRun{}, code, false
	}
	h := hookRun{event: *event, gate: gate, timeout: *timeout, opts: bridge.HookOptions{Ask: *ask}}
	if len(pos) > 0 {
		h.runtime = pos[0]
	}
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "timeout" && h.timeout <= 0 {
			h.timeout = -1
		}
	})
	if err := hookUsage(pos, &h); err != nil {
		_ = printLine(e.Stderr, fmt.Sprintf("agc-sarif hook: %v", err))
		fs.Usage()
		return hookRun{}, ExitUsage, false
	}
	return h, 0, true
}

// usagePhase is the phase a copilot hook whose arguments are bad was
// configured for, as far as its --event says (before the tool when it does
// not): the denial must be one the runtime acts on in that phase.
func usagePhase(args []string) bridge.Phase {
	own, _ := cutArgs(args)
	for i, a := range own {
		name, value, eq := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "event" {
			continue
		}
		if !eq && i+1 < len(own) {
			value = own[i+1]
		}
		if p, err := bridge.ParseEvent(bridge.RuntimeCopilot, value); err == nil {
			return p
		}
	}
	return bridge.Pre
}

// cutArgs splits args at the first "--": the hook's own arguments before
// it, the gate command after it, which is never parsed as flags.
func cutArgs(args []string) (own, gate []string) {
	for i, a := range args {
		if a == "--" {
			return args[:i], args[i+1:]
		}
	}
	return args, nil
}

func hookUsage(pos []string, h *hookRun) error {
	known := h.runtime == runtimeAuto || slices.Contains(bridge.Runtimes, h.runtime)
	switch {
	case len(pos) == 0 || !known:
		return fmt.Errorf("the first argument names the runtime: %s or %s", strings.Join(bridge.Runtimes, ", "), runtimeAuto)
	case len(pos) > 1:
		return fmt.Errorf("unexpected argument %q: give the gate command after \"--\"", pos[1])
	case len(h.gate) == 0:
		return errors.New("no gate command: give it after \"--\"")
	case h.event == "" && h.runtime != runtimeAuto:
		return errors.New("--event is required: PreToolUse or PostToolUse")
	case h.timeout < 0:
		return errors.New("--timeout must be positive")
	}
	if h.runtime != runtimeAuto {
		if _, err := bridge.ParseEvent(h.runtime, h.event); err != nil {
			return err
		}
	} else if h.event != "" && h.event != bridge.EventPreToolUse && h.event != bridge.EventPostToolUse {
		return fmt.Errorf("with auto, --event is PreToolUse or PostToolUse, not %q", h.event)
	}
	return nil
}

// hookTarget is the runtime and phase the payload is answered for: the
// named runtime, or for auto the one the payload looks like, with a lint
// on stderr where two runtimes' payloads look alike.
func hookTarget(e *Env, h hookRun, payload []byte) (string, bridge.Phase, error) {
	if h.runtime != runtimeAuto {
		p, err := bridge.ParseEvent(h.runtime, h.event)
		if err == nil {
			err = checkPayload(payload)
		}
		return h.runtime, p, err
	}
	if err := checkPayload(payload); err != nil {
		return h.runtime, bridge.Pre, err
	}
	rt, p, lints := bridge.DetectRuntime(payload)
	for _, l := range lints {
		_ = printLine(e.Stderr, "agc-sarif hook: lint: "+l.String())
	}
	if rt == "" {
		return "", bridge.Pre, errors.New("<stdin>: the hook input is no runtime's tool hook payload that auto recognises; name the runtime")
	}
	if h.event != "" && h.event != [...]string{bridge.EventPreToolUse, bridge.EventPostToolUse}[p] {
		return rt, p, fmt.Errorf("<stdin>: the hook input is a %s %s payload, but the hook was configured with --event %s", rt, bridge.Event(rt, p), h.event)
	}
	return rt, p, nil
}

// hookAnswer reads the hook input into the gate's input, runs the gate
// and turns its answer into the runtime's hook JSON.
func hookAnswer(e *Env, h hookRun, runtime string, p bridge.Phase, payload []byte) ([]byte, error) {
	tc, err := bridge.ReadToolCall(runtime, p, payload)
	if err != nil {
		return nil, fmt.Errorf("<stdin>: %w", err)
	}
	in, err := json.Marshal(tc, json.Deterministic(true))
	if err != nil {
		return nil, fmt.Errorf("encode the gate's input: %w", err)
	}
	timeout := h.timeout
	if timeout == 0 {
		timeout = hookTimeouts[runtime]
	}
	out, err := runGate(e, h.gate, in, timeout)
	if err != nil {
		return nil, err
	}
	r, err := gateResponse(out)
	if err != nil {
		return nil, err
	}
	opts := h.opts
	opts.Original = tc.ToolInput
	return bridge.HookAnswer(runtime, p, r, opts)
}

// checkPayload: the hook input is one JSON object.
func checkPayload(payload []byte) error {
	if len(payload) > maxHookPayload {
		return fmt.Errorf("<stdin>: the hook input is larger than %d bytes", maxHookPayload)
	}
	if err := agc.CheckSyntax("<stdin>", payload, agc.Limits{}); err != nil {
		return fmt.Errorf("the hook input is not JSON: %w", err)
	}
	return nil
}

// runGate runs the gate command with the hook input on stdin, in the
// command's environment (Env.Environ) with AGC_PREVIEW=1 (spec §11: it must not block or write
// state itself; this command enforces its verdict). Its stderr is passed on,
// bounded: as it comes, or under GitHub Actions, where it may echo the
// judged party's text, once the gate is done, in a ::stop-commands:: block. A non-zero exit is not a failure by itself: gates commonly exit 1
// with a failing verdict, and the verdict is what counts.
func runGate(e *Env, argv []string, payload []byte, timeout time.Duration) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin = bytes.NewReader(payload)
	var env []string
	if e.Environ != nil {
		env = e.Environ()
	}
	cmd.Env = append(env, "AGC_PREVIEW=1")
	stdout := &capped{max: maxGateAnswer}
	cmd.Stdout = stdout
	gateErr := &capped{max: maxGateStderr, w: e.Stderr, quiet: true}
	inActions := logsafe.InActions(e.Getenv)
	if inActions {
		gateErr.w = nil // kept, and wrapped below
	}
	cmd.Stderr = gateErr
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	if inActions {
		_ = logsafe.Block(e.Stderr, true, gateErr.buf.Bytes())
	}
	name := strings.Join(argv, " ")
	switch {
	case ctx.Err() != nil:
		return nil, fmt.Errorf("gate %q did not answer within %s", name, timeout)
	case stdout.over:
		return nil, fmt.Errorf("gate %q printed more than %d bytes", name, maxGateAnswer)
	}
	var xe *exec.ExitError
	if err != nil && !errors.As(err, &xe) {
		return nil, fmt.Errorf("gate %q: %w", name, err)
	}
	if len(bytes.TrimSpace(stdout.buf.Bytes())) == 0 {
		return nil, fmt.Errorf("gate %q printed no AGC response (%s)", name, exitText(err))
	}
	return stdout.buf.Bytes(), nil
}

func exitText(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// gateResponse validates the gate's answer: exactly one AGC response that
// breaks no rule of the contract.
func gateResponse(out []byte) (*agc.Response, error) {
	const name = "gate answer"
	if vs := validate.Bytes(name, out, agc.Limits{MaxBytes: maxGateAnswer}); validate.HasErrors(vs) {
		var msgs []string
		for _, v := range vs {
			if v.Severity == validate.SeverityError && len(msgs) < 3 {
				msgs = append(msgs, v.String())
			}
		}
		return nil, fmt.Errorf("the gate's answer is not valid AGC: %s", strings.Join(msgs, "; "))
	}
	r, err := agc.Decode(name, out, agc.Limits{MaxBytes: maxGateAnswer})
	if err != nil {
		return nil, fmt.Errorf("the gate's answer is not one AGC response: %w", err)
	}
	return r, nil
}

// capped keeps (or passes on to w) at most max bytes, and notes when more
// came. Past the bound it fails the write unless quiet, which stops a gate
// that floods stdout.
type capped struct {
	buf   bytes.Buffer
	w     io.Writer
	max   int
	n     int
	over  bool
	quiet bool
}

func (c *capped) Write(p []byte) (int, error) {
	room := c.max - c.n
	if len(p) > room {
		c.over = true
		if !c.quiet {
			return 0, errors.New("output limit reached")
		}
		p2 := p[:max(room, 0)]
		c.keep(p2)
		return len(p), nil
	}
	c.keep(p)
	return len(p), nil
}

func (c *capped) keep(p []byte) {
	c.n += len(p)
	if c.w != nil {
		c.w.Write(p)
		return
	}
	c.buf.Write(p)
}
