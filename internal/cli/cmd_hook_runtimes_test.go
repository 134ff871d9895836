package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// runtimePayload is a real-shaped tool hook payload of each runtime for a
// shell command, written from its reference (docs/bridges.md).
func runtimePayload(runtime, event, command string) string {
	var m map[string]any
	switch runtime {
	case "codex":
		m = map[string]any{"session_id": "0199a213", "turn_id": "1", "transcript_path": nil, "cwd": "/work/main",
			"hook_event_name": event, "model": "gpt-5-codex", "permission_mode": "default",
			"tool_name": "Bash", "tool_use_id": "call_1", "tool_input": map[string]any{"command": command}}
	case "gemini":
		m = map[string]any{"session_id": "7f3c", "transcript_path": "/tmp/s.json", "cwd": "/work/main",
			"hook_event_name": event, "timestamp": "2026-11-02T10:00:00.000Z",
			"tool_name": "run_shell_command", "tool_input": map[string]any{"command": command}}
		if event == "AfterTool" {
			m["tool_response"] = map[string]any{"llmContent": "ok", "returnDisplay": "ok"}
		}
	case "copilot":
		args, _ := json.Marshal(map[string]any{"command": command})
		m = map[string]any{"sessionId": "c0ffee", "timestamp": 1762077600000, "cwd": "/work/main",
			"toolName": "bash", "toolArgs": string(args)}
		if event == "postToolUse" {
			// Copilot CLI 1.0.102 sends toolArgs after the tool as an
			// object, with the tool's result.
			m["toolArgs"] = map[string]any{"command": command}
			m["toolResult"] = map[string]any{"resultType": "success", "textResultForLlm": "ok"}
		}
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// TestHookRuntimesEndToEnd pipes each runtime's payload through
// "agc-sarif hook RUNTIME" with the small gate script the Claude test uses.
func TestHookRuntimesEndToEnd(t *testing.T) {
	const fixed = "cd /work/.worktrees/metrics-fix/backend && git status"
	for _, tt := range []struct {
		runtime, event, command string
		extra                   []string
		want                    string // path=value in the answer
	}{
		{"codex", "PreToolUse", "cd /work/main && git status", nil, "hookSpecificOutput.permissionDecision=deny"},
		{"codex", "PreToolUse", "git push --force origin main", nil, "hookSpecificOutput.permissionDecision=deny"},
		{"codex", "PreToolUse", "rm -rf /", nil, "hookSpecificOutput.permissionDecision=deny"},
		{"codex", "PreToolUse", "ls", nil, ""},
		{"codex", "PostToolUse", "git push --force origin main", nil, "decision=block"},
		{"codex", "PostToolUse", "cd /work/main && git status", nil, "decision=block"},
		{"gemini", "BeforeTool", "cd /work/main && git status", nil, "hookSpecificOutput.tool_input.command=" + fixed},
		{"gemini", "BeforeTool", "cd /work/main && git status", []string{"--ask"}, "decision=ask"},
		{"gemini", "BeforeTool", "git push --force origin main", nil, "decision=deny"},
		{"gemini", "BeforeTool", "rm -rf /", nil, "decision=ask"},
		{"gemini", "BeforeTool", "ls", nil, ""},
		{"gemini", "AfterTool", "git push --force origin main", nil, "decision=deny"},
		{"gemini", "AfterTool", "rm -rf /", nil, "continue=false"},
		{"copilot", "preToolUse", "cd /work/main && git status", nil, "modifiedArgs.command=" + fixed},
		{"copilot", "preToolUse", "git push --force origin main", nil, "permissionDecision=deny"},
		{"copilot", "preToolUse", "rm -rf /", nil, "permissionDecision=ask"},
		{"copilot", "preToolUse", "ls", nil, ""},
		{"copilot", "postToolUse", "git push --force origin main", nil, "modifiedResult.resultType=failure"},
		{"copilot", "postToolUse", "rm -rf /", nil, "modifiedResult.resultType=failure"},
		{"copilot", "postToolUse", "cd /work/main && git status", nil, "modifiedResult.resultType=success"},
		{"copilot", "postToolUse", "ls", nil, ""},
	} {
		t.Run(tt.runtime+" "+tt.event+" "+tt.command+strings.Join(tt.extra, ""), func(t *testing.T) {
			args := append([]string{tt.runtime, "--event", tt.event}, tt.extra...)
			args = append(args, "--", "bash", hookGate)
			code, out, errOut := hookCmd(runtimePayload(tt.runtime, tt.event, tt.command), args...)
			if code != ExitOK {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			m := hookOut(t, out)
			if strings.Contains(out, `"allow"`) || strings.Contains(out, `"approve"`) {
				t.Fatalf("the answer approves the call: %s", out)
			}
			wantHookAnswer(t, out, m, m, tt.want)
		})
	}
}

// TestHookRuntimesFailClosed: without a valid answer each runtime is
// blocked the way it blocks: exit 2 for Codex and Gemini CLI (Gemini
// treats any other non-zero exit as a warning), a denial on stdout for
// Copilot CLI (which skips failing hooks); the reason is on stderr.
func TestHookRuntimesFailClosed(t *testing.T) {
	for _, rt := range []struct{ runtime, event string }{{"codex", "PreToolUse"}, {"codex", "PostToolUse"}, {"gemini", "BeforeTool"}, {"gemini", "AfterTool"}, {"copilot", "preToolUse"}, {"copilot", "postToolUse"}} {
		for _, tt := range []struct {
			name, stdin string
			args        []string
			want        string
		}{
			{"garbage", runtimePayload(rt.runtime, rt.event, "garbage"), []string{"--", "bash", hookGate}, "not valid AGC"},
			{"not json", "{\"tool", []string{"--", "bash", hookGate}, "not JSON"},
			{"timeout", runtimePayload(rt.runtime, rt.event, "sleep"), []string{"--timeout", "200ms", "--", "bash", hookGate}, "did not answer within 200ms"},
			{"malformed payload", `{"hook_event_name":"` + rt.event + `","tool_input":{}}`, []string{"--", "bash", hookGate}, "names no tool"},
			{"prints text", runtimePayload(rt.runtime, rt.event, "ls"), []string{"--", "bash", "-c", "cat >/dev/null; echo hello"}, "not valid AGC"},
		} {
			t.Run(rt.runtime+" "+rt.event+" "+tt.name, func(t *testing.T) {
				args := append([]string{rt.runtime, "--event", rt.event}, tt.args...)
				code, out, errOut := hookCmd(tt.stdin, args...)
				if !strings.Contains(errOut, tt.want) || !strings.Contains(errOut, "failing closed") {
					t.Errorf("stderr %q, want it to say %q and that it fails closed", errOut, tt.want)
				}
				if rt.event == "preToolUse" {
					m := hookOut(t, out)
					if code != ExitOK || m["permissionDecision"] != "deny" || m["permissionDecisionReason"] == "" {
						t.Errorf("exit %d, stdout %s; want exit 0 and a denial", code, out)
					}
					return
				}
				if rt.event == "postToolUse" {
					// Copilot CLI ignores a permission decision after the
					// tool ran: the denial withholds the result.
					r, _ := hookOut(t, out)["modifiedResult"].(map[string]any)
					if code != ExitOK || r["resultType"] != "failure" || !strings.Contains(fmt.Sprint(r["textResultForLlm"]), "withheld") {
						t.Errorf("exit %d, stdout %s; want exit 0 and the result withheld", code, out)
					}
					return
				}
				if code != exitHookBlock || out != "" {
					t.Errorf("exit %d, stdout %q; want exit 2 and no stdout", code, out)
				}
			})
		}
	}
}

// TestHookGateInput: every runtime's gate reads one vocabulary.
func TestHookGateInput(t *testing.T) {
	gate := `in=$(cat); case "$in" in *'"tool":"shell"'*'"tool_input":{"command":"ls"}'*) bash ` + hookGate + ` <<<'ls';; *) echo "$in" >&2;; esac`
	for _, rt := range []struct{ runtime, event string }{{"codex", "PreToolUse"}, {"gemini", "BeforeTool"}, {"copilot", "preToolUse"}, {"copilot", "postToolUse"}} {
		code, out, errOut := hookCmd(runtimePayload(rt.runtime, rt.event, "ls"), rt.runtime, "--event", rt.event, "--", "bash", "-c", gate)
		if code != ExitOK || strings.TrimSpace(out) != "{}" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", rt.runtime, code, out, errOut)
		}
	}
}

// TestHookAuto: auto recognises each runtime, and lints the look-alikes.
func TestHookAuto(t *testing.T) {
	for _, tt := range []struct {
		stdin, want string
		lint        bool
	}{
		{runtimePayload("codex", "PreToolUse", "git push --force"), "hookSpecificOutput.permissionDecision=deny", false},
		{runtimePayload("gemini", "BeforeTool", "git push --force"), "decision=deny", false},
		{runtimePayload("copilot", "preToolUse", "git push --force"), "permissionDecision=deny", false},
		{runtimePayload("copilot", "postToolUse", "git push --force"), "modifiedResult.resultType=failure", false},
		{hookPayload("PreToolUse", "git push --force"), "hookSpecificOutput.permissionDecision=deny", true},
	} {
		code, out, errOut := hookCmd(tt.stdin, "auto", "--", "bash", hookGate)
		if code != ExitOK {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		m := hookOut(t, out)
		wantHookAnswer(t, out, m, m, tt.want)
		if strings.Contains(errOut, "looks like both") != tt.lint {
			t.Errorf("lint %v, stderr %q", tt.lint, errOut)
		}
	}
}

func TestHookRuntimesUsage(t *testing.T) {
	for _, args := range [][]string{
		{"cursor", "--event", "PreToolUse", "--", "true"},
		{"gemini", "--event", "Stop", "--", "true"},
		{"auto", "--event", "BeforeTool", "--", "true"},
	} {
		code, out, errOut := hookCmd("{}", args...)
		if code != ExitUsage || out != "" || errOut == "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

// TestHookCopilotUsageDenies: Copilot CLI skips a hook that exits non-zero,
// so a misconfigured copilot hook also prints a denial: before the tool a
// permission decision, after it (where a permission decision is ignored)
// the result withheld.
func TestHookCopilotUsageDenies(t *testing.T) {
	for _, tt := range []struct {
		event, want string
	}{
		{"preToolUse", "permissionDecision=deny"},
		{"PreToolUse", "permissionDecision=deny"},
		{"postToolUse", "modifiedResult.resultType=failure"},
		{"PostToolUse", "modifiedResult.resultType=failure"},
		{"sessionStart", "permissionDecision=deny"},
	} {
		code, out, errOut := hookCmd("{}", "copilot", "--event", tt.event, "--timeout", "-1s", "--", "true")
		if code != ExitOK || !strings.Contains(errOut, "bad usage") && !strings.Contains(errOut, "--timeout") {
			t.Fatalf("%s: exit %d, stderr %q", tt.event, code, errOut)
		}
		m := hookOut(t, out)
		wantHookAnswer(t, out, m, m, tt.want)
	}
}
