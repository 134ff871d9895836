package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
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
	maxHookPayload = 16 << 20 // the hook input Claude Code sends
	maxGateAnswer  = 16 << 20 // what the gate may print on stdout
	maxGateStderr  = 64 << 10 // gate stderr passed on
	// defaultHookTimeout stays under Claude Code's own hook timeout (60 s
	// by default in some versions): a hook that Claude Code kills is a
	// non-blocking error and the call would run unjudged; this one ends
	// first and fails closed.
	defaultHookTimeout = 45 * time.Second
)

// exitHookBlock is the exit code with which Claude Code blocks the call and
// shows stderr to the model (agc-runtime-bindings, "Claude Code"). The hook
// uses it only when it has no valid AGC answer to give: it fails closed.
const exitHookBlock = 2

// runHook implements "agc-sarif hook claude --event E [--ask] -- GATE...":
// run an AGC gate in preview mode on a Claude Code hook's input and answer
// Claude Code with the hook JSON of its verdict (docs/bridges.md).
//
// Exit 0 with JSON on stdout whenever the gate gave a valid AGC answer,
// whatever its verdict (a repair must travel as JSON: exit 2 would lose
// updatedInput). Exit 2, with the reason on stderr, when there is no valid
// answer: bad usage, an unreadable hook input, a gate that cannot start,
// times out, prints too much, or prints anything but one valid AGC response.
// Claude Code then blocks the call: the hook fails closed.
func runHook(e *Env, args []string) int {
	fs := newFlags(e, "hook", "claude --event PreToolUse|PostToolUse [--ask] [--timeout D] -- GATE-COMMAND [ARG...]")
	event := newEnum("", bridge.EventPreToolUse, bridge.EventPostToolUse)
	fs.Var(event, "event", "the Claude Code hook event: PreToolUse or PostToolUse (required)")
	ask := fs.Bool("ask", false, "PreToolUse: send permissionDecision \"ask\" with a repair, so the person sees the rewritten call")
	timeout := fs.Duration("timeout", defaultHookTimeout, "how long the gate may run")
	own, gate := cutArgs(args)
	pos, code, ok := parseArgs(fs, own)
	if !ok {
		return code
	}
	if err := hookUsage(pos, gate, event.value, *timeout); err != nil {
		_ = printLine(e.Stderr, fmt.Sprintf("agc-sarif hook: %v", err))
		fs.Usage()
		return ExitUsage
	}
	out, err := hookAnswer(e, event.value, gate, *timeout, bridge.ClaudeOptions{Ask: *ask})
	if err != nil {
		_ = printLine(e.Stderr, fmt.Sprintf("agc-sarif hook: %v; failing closed: the call is blocked", err))
		return exitHookBlock
	}
	if err := writeOut(e, out, false); err != nil {
		_ = printLine(e.Stderr, fmt.Sprintf("agc-sarif hook: write: %v", err))
		return exitHookBlock
	}
	return ExitOK
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

func hookUsage(pos, gate []string, event string, timeout time.Duration) error {
	switch {
	case len(pos) == 0 || pos[0] != "claude":
		return errors.New("the first argument names the runtime; only \"claude\" is supported")
	case len(pos) > 1:
		return fmt.Errorf("unexpected argument %q: give the gate command after \"--\"", pos[1])
	case len(gate) == 0:
		return errors.New("no gate command: give it after \"--\"")
	case event == "":
		return errors.New("--event is required: PreToolUse or PostToolUse")
	case timeout <= 0:
		return errors.New("--timeout must be positive")
	}
	return nil
}

// hookAnswer reads the hook input, runs the gate and turns its answer into
// the hook JSON.
func hookAnswer(e *Env, event string, gate []string, timeout time.Duration, opts bridge.ClaudeOptions) ([]byte, error) {
	payload, err := readInput(e, "-", maxHookPayload)
	if err != nil {
		return nil, err
	}
	if err := checkPayload(payload, event); err != nil {
		return nil, err
	}
	out, err := runGate(e, gate, payload, timeout)
	if err != nil {
		return nil, err
	}
	r, err := gateResponse(out)
	if err != nil {
		return nil, err
	}
	if event == bridge.EventPostToolUse {
		return bridge.ClaudePostToolUse(r, opts)
	}
	return bridge.ClaudePreToolUse(r, opts)
}

// checkPayload: the hook input is one JSON object, for the event the hook
// was configured for.
func checkPayload(payload []byte, event string) error {
	if len(payload) > maxHookPayload {
		return fmt.Errorf("<stdin>: the hook input is larger than %d bytes", maxHookPayload)
	}
	if err := agc.CheckSyntax("<stdin>", payload, agc.Limits{}); err != nil {
		return fmt.Errorf("the hook input is not JSON: %w", err)
	}
	var in struct {
		Event *string `json:"hook_event_name"`
	}
	if err := json.Unmarshal(payload, &in, json.RejectUnknownMembers(false)); err != nil {
		return fmt.Errorf("<stdin>: the hook input is not a Claude Code hook object: %v", err)
	}
	if in.Event != nil && *in.Event != event {
		return fmt.Errorf("<stdin>: hook_event_name is %q, but the hook was configured with --event %s", *in.Event, event)
	}
	return nil
}

// runGate runs the gate command with the hook input on stdin and
// AGC_PREVIEW=1 in its environment (spec §11: it must not block or write
// state itself; this command enforces its verdict). Its stderr is passed on,
// bounded: as it comes, or under GitHub Actions, where it may echo the
// judged party's text, once the gate is done, in a ::stop-commands:: block. A non-zero exit is not a failure by itself: gates commonly exit 1
// with a failing verdict, and the verdict is what counts.
func runGate(e *Env, argv []string, payload []byte, timeout time.Duration) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin = bytes.NewReader(payload)
	cmd.Env = append(os.Environ(), "AGC_PREVIEW=1")
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
