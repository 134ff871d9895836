package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

const hookGate = "testdata/hook/gate.sh"

// hookPayload is a Claude Code PreToolUse input for the Bash tool.
func hookPayload(event, command string) string {
	b, _ := json.Marshal(map[string]any{
		"session_id":      "abc123",
		"transcript_path": "/home/u/.claude/projects/p/abc123.jsonl",
		"cwd":             "/work/main",
		"permission_mode": "default",
		"hook_event_name": event,
		"tool_name":       "Bash",
		"tool_input":      map[string]any{"command": command, "description": "run it"},
	})
	return string(b)
}

func hookCmd(stdin string, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	e := &Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb,
		Getenv: func(string) string { return "" }, Version: "test"}
	code = runHook(e, args)
	return code, out.String(), errb.String()
}

func hookOut(t *testing.T, stdout string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(stdout), &m); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, stdout)
	}
	return m
}

// TestHookEndToEnd pipes PreToolUse and PostToolUse payloads through
// "agc-sarif hook claude" with a small gate script.
func TestHookEndToEnd(t *testing.T) {
	for _, tt := range []struct {
		name, event, command string
		extra                []string
		want                 string // the decision member that must be set, as path=value
	}{
		{"repaired", "PreToolUse", "cd /work/main && git status", nil, "updatedInput.command=cd /work/.worktrees/metrics-fix/backend && git status"},
		{"repaired ask", "PreToolUse", "cd /work/main && git status", []string{"--ask"}, "permissionDecision=ask"},
		{"block", "PreToolUse", "git push --force origin main", nil, "permissionDecision=deny"},
		{"escalate", "PreToolUse", "rm -rf /", nil, "permissionDecision=ask"},
		{"allow", "PreToolUse", "ls", nil, ""},
		{"post block", "PostToolUse", "git push --force origin main", nil, "decision=block"},
		{"post repaired", "PostToolUse", "cd /work/main && git status", nil, "updatedToolOutput.command=cd /work/.worktrees/metrics-fix/backend && git status"},
		{"post escalate", "PostToolUse", "rm -rf /", nil, "continue=false"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"claude", "--event", tt.event}, tt.extra...)
			args = append(args, "--", "bash", hookGate)
			code, out, errOut := hookCmd(hookPayload(tt.event, tt.command), args...)
			if code != ExitOK {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			m := hookOut(t, out)
			s, _ := m["hookSpecificOutput"].(map[string]any)
			if s != nil && s["permissionDecision"] == "allow" {
				t.Fatalf("a gate's answer approved the call: %s", out)
			}
			wantHookAnswer(t, out, m, s, tt.want)
		})
	}
}

// wantHookAnswer checks the hook's answer m, printed as out, against want:
// "path=value" with the path found by lookup in m or spec, or "" for the
// empty answer {} that allows the call.
func wantHookAnswer(t *testing.T, out string, m, spec map[string]any, want string) {
	t.Helper()
	if want == "" {
		if len(m) != 0 {
			t.Errorf("allow answers {}, got %s", out)
		}
		return
	}
	path, value, _ := strings.Cut(want, "=")
	if got := lookup(m, spec, path); got != value {
		t.Errorf("%s = %q, want %q\n%s", path, got, value, out)
	}
}

// lookup finds a dotted path in the top level or in hookSpecificOutput.
func lookup(top, spec map[string]any, path string) string {
	var v any = top
	if _, ok := top[strings.Split(path, ".")[0]]; !ok {
		v = spec
	}
	for _, k := range strings.Split(path, ".") {
		m, _ := v.(map[string]any)
		v = m[k]
	}
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

// TestHookFailsClosed: without a valid AGC answer the hook exits 2 (Claude
// Code blocks the call and shows stderr) and prints nothing on stdout.
func TestHookFailsClosed(t *testing.T) {
	for _, tt := range []struct {
		name, stdin string
		args        []string
		want        string
	}{
		{"invalid AGC", hookPayload("PreToolUse", "garbage"), []string{"--", "bash", hookGate}, "not valid AGC"},
		{"timeout", hookPayload("PreToolUse", "sleep"), []string{"--timeout", "200ms", "--", "bash", hookGate}, "did not answer within 200ms"},
		{"no such gate", hookPayload("PreToolUse", "ls"), []string{"--", "testdata/hook/no-such-gate"}, "no-such-gate"},
		{"no output", hookPayload("PreToolUse", "ls"), []string{"--", "true"}, "printed no AGC response"},
		{"not preview", hookPayload("PreToolUse", "ls"), []string{"--", "env", "-u", "AGC_PREVIEW", "bash", "-c", "AGC_PREVIEW= bash " + hookGate}, "printed no AGC response (exit status 3)"},
		{"bad payload", "not json", []string{"--", "bash", hookGate}, "the hook input is not JSON"},
		{"wrong event", hookPayload("PostToolUse", "ls"), []string{"--", "bash", hookGate}, "hook_event_name is \"PostToolUse\""},
		{"flood", hookPayload("PreToolUse", "ls"), []string{"--", "bash", "-c", "cat >/dev/null; yes | head -c 20000000"}, "printed more than"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"claude", "--event", "PreToolUse"}, tt.args...)
			code, out, errOut := hookCmd(tt.stdin, args...)
			if code != exitHookBlock || out != "" {
				t.Fatalf("exit %d, stdout %q; want exit 2 and no stdout", code, out)
			}
			if !strings.Contains(errOut, tt.want) || !strings.Contains(errOut, "failing closed") {
				t.Errorf("stderr %q, want it to say %q and that it fails closed", errOut, tt.want)
			}
		})
	}
}

// TestHookGateStderr: the gate's stderr reaches Claude Code's stderr.
func TestHookGateStderr(t *testing.T) {
	code, _, errOut := hookCmd(hookPayload("PreToolUse", "git push --force"), "claude", "--event", "PreToolUse", "--", "bash", hookGate)
	if code != ExitOK || !strings.Contains(errOut, "gate.sh: blocking a force push") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

func TestHookUsage(t *testing.T) {
	for _, args := range [][]string{
		{"--event", "PreToolUse", "--", "bash", hookGate},
		{"cursor", "--event", "PreToolUse", "--", "bash", hookGate},
		{"claude", "--", "bash", hookGate},
		{"claude", "--event", "Stop", "--", "bash", hookGate},
		{"claude", "--event", "PreToolUse"},
		{"claude", "--event", "PreToolUse", "--timeout", "0s", "--", "true"},
		{"claude", "--event", "PreToolUse", "bash", hookGate},
	} {
		code, out, errOut := hookCmd("{}", args...)
		if code != ExitUsage || out != "" || errOut == "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

// TestHookGateInheritsEnv: the gate runs in the environment the command
// was given (Env.Environ, the process's in main), not one the command
// reads for itself.
func TestHookGateInheritsEnv(t *testing.T) {
	var out, errb bytes.Buffer
	e := &Env{Stdin: strings.NewReader(hookPayload("PreToolUse", "ls")), Stdout: &out, Stderr: &errb,
		Getenv:  func(string) string { return "" },
		Environ: func() []string { return []string{"AGC_HOOK_TEST=given"} }}
	runHook(e, []string{"claude", "--event", "PreToolUse", "--", "bash", "-c", `cat >/dev/null; echo "gate sees [$AGC_HOOK_TEST] [$AGC_PREVIEW]" >&2`})
	if !strings.Contains(errb.String(), "gate sees [given] [1]") {
		t.Errorf("stderr %q, want the gate to see the given environment and AGC_PREVIEW=1", errb.String())
	}
}
