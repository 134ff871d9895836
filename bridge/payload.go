package bridge

import (
	"fmt"
	"strings"

	"github.com/agcgate/agc-action/diag"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// ToolCall is a runtime's tool hook payload in one vocabulary, which is
// what the gate reads on stdin (docs/bridges.md, "The gate's input"): one
// gate script serves every runtime.
type ToolCall struct {
	Runtime string `json:"runtime"`
	// Event is PreToolUse or PostToolUse, whatever the runtime calls it;
	// HookEventName is the runtime's own name.
	Event         string `json:"event"`
	HookEventName string `json:"hook_event_name"`
	// Tool is the tool in the shared vocabulary (ToolKind); ToolName is the
	// runtime's own name of it.
	Tool         string         `json:"tool"`
	ToolName     string         `json:"tool_name"`
	ToolInput    jsontext.Value `json:"tool_input"`
	ToolResponse jsontext.Value `json:"tool_response,omitzero"`
	SessionID    string         `json:"session_id,omitzero"`
	Cwd          string         `json:"cwd,omitzero"`
	// Payload is the runtime's payload as it came.
	Payload jsontext.Value `json:"payload"`
}

// payload holds every member name a runtime's tool payload uses.
type payload struct {
	HookEventName *string        `json:"hook_event_name"`
	ToolName      *string        `json:"tool_name"`
	ToolInput     jsontext.Value `json:"tool_input"`
	ToolResponse  jsontext.Value `json:"tool_response"`
	ToolResult    jsontext.Value `json:"tool_result"`
	SessionID     *string        `json:"session_id"`
	Cwd           *string        `json:"cwd"`
	TurnID        jsontext.Value `json:"turn_id"`
	Timestamp     jsontext.Value `json:"timestamp"`
	// Copilot CLI's camelCase payload.
	CopilotToolName *string        `json:"toolName"`
	ToolArgs        jsontext.Value `json:"toolArgs"`
	CopilotResult   jsontext.Value `json:"toolResult"`
	CopilotSession  *string        `json:"sessionId"`
}

// ReadToolCall reads runtime's hook payload for phase p. The payload must
// be one JSON object with a tool name and an object of tool input, and an
// event name, when it has one, must be the event the hook was configured
// for.
func ReadToolCall(runtime string, p Phase, data []byte) (*ToolCall, error) {
	var in payload
	if err := json.Unmarshal(data, &in, json.RejectUnknownMembers(false)); err != nil {
		return nil, fmt.Errorf("the hook input is not a %s tool hook object: %v", runtime, err)
	}
	tc := &ToolCall{Runtime: runtime, Event: [...]string{EventPreToolUse, EventPostToolUse}[p],
		HookEventName: Event(runtime, p), Payload: jsontext.Value(data)}
	if in.HookEventName != nil && *in.HookEventName != tc.HookEventName &&
		(runtime != RuntimeCopilot || *in.HookEventName != tc.Event) {
		return nil, fmt.Errorf("hook_event_name is %q, but the hook was configured with --event %s", *in.HookEventName, tc.HookEventName)
	}
	tc.SessionID, tc.Cwd = deref(in.SessionID), deref(in.Cwd)
	name, input, resp := in.ToolName, in.ToolInput, in.ToolResponse
	if runtime == RuntimeCopilot {
		if in.CopilotToolName != nil {
			name, input, resp = in.CopilotToolName, in.ToolArgs, in.CopilotResult
			tc.SessionID = deref(in.CopilotSession)
		} else {
			resp = in.ToolResult
		}
		var err error
		if input, err = copilotArgs(input); err != nil {
			return nil, err
		}
	}
	if name == nil || *name == "" {
		return nil, fmt.Errorf("the hook input names no tool (%s)", toolNameMember(runtime))
	}
	if input.Kind() != '{' {
		return nil, fmt.Errorf("the hook input's tool input is %s, not a JSON object", kindOf(input))
	}
	tc.ToolName, tc.ToolInput, tc.ToolResponse = *name, input, resp
	tc.Tool = ToolKind(runtime, *name)
	return tc, nil
}

// copilotArgs: Copilot CLI's toolArgs is documented as a JSON string
// holding the arguments; 1.0.102 sends the object itself (and its
// snake_case form parsed JSON when it could). Both are read.
func copilotArgs(v jsontext.Value) (jsontext.Value, error) {
	if v.Kind() != '"' {
		return v, nil
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return nil, err
	}
	inner := jsontext.Value(s)
	if !inner.IsValid() {
		return nil, fmt.Errorf("the hook input's toolArgs is a string that does not hold JSON")
	}
	return inner, nil
}

func toolNameMember(runtime string) string {
	if runtime == RuntimeCopilot {
		return "toolName"
	}
	return "tool_name"
}

func kindOf(v jsontext.Value) string {
	if len(v) == 0 {
		return "missing"
	}
	switch v.Kind() {
	case '"':
		return "a string"
	case '[':
		return "an array"
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	case '0':
		return "a number"
	}
	return "not JSON"
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// The shared tool vocabulary: runtime tool name → tool.
var toolNames = map[string]map[string]string{
	RuntimeClaude: {"Bash": "shell", "Read": "read", "Write": "write", "Edit": "edit", "MultiEdit": "edit",
		"Glob": "glob", "Grep": "grep", "WebFetch": "web_fetch", "WebSearch": "web_search"},
	RuntimeCodex: {"Bash": "shell", "shell": "shell", "apply_patch": "patch"},
	RuntimeGemini: {"run_shell_command": "shell", "read_file": "read", "read_many_files": "read", "write_file": "write",
		"replace": "edit", "glob": "glob", "grep_search": "grep", "search_file_content": "grep",
		"list_directory": "list", "web_fetch": "web_fetch", "google_web_search": "web_search"},
	RuntimeCopilot: {"bash": "shell", "powershell": "shell", "view": "read", "create": "write", "edit": "edit",
		"glob": "glob", "grep": "grep", "web_fetch": "web_fetch"},
}

// ToolKind is the tool of runtime's tool name in the shared vocabulary:
// shell, read, write, edit, patch, glob, grep, list, web_fetch, web_search,
// mcp (an MCP server's tool), or the runtime's own name for any other.
func ToolKind(runtime, name string) string {
	if k, ok := toolNames[runtime][name]; ok {
		return k
	}
	if strings.HasPrefix(name, "mcp__") || runtime == RuntimeGemini && strings.HasPrefix(name, "mcp_") {
		return "mcp"
	}
	return name
}

// DetectRuntime names the runtime whose tool hook payload data looks like,
// and the event of it, as best it can: "" when it cannot tell. Claude Code
// and Codex send the same member names (Codex adds turn_id), and Copilot
// CLI's PascalCase form copies Claude Code's: where two runtimes' payloads
// look alike the answer comes with a lint saying so, since only
// "hook RUNTIME" is authoritative.
func DetectRuntime(data []byte) (runtime string, p Phase, lints []diag.Lint) {
	var in payload
	if json.Unmarshal(data, &in, json.RejectUnknownMembers(false)) != nil {
		return "", 0, nil
	}
	alike := func(a, b string) []diag.Lint {
		return []diag.Lint{{Place: diag.Place{File: "<stdin>", Pointer: "/hook_event_name"},
			Message: fmt.Sprintf("the payload looks like both %s's and %s's; read as %s: name the runtime (hook %s) to be sure", a, b, a, runtimeKey(a))}}
	}
	if in.CopilotToolName != nil {
		if len(in.CopilotResult) > 0 {
			return RuntimeCopilot, Post, nil
		}
		return RuntimeCopilot, Pre, nil
	}
	if in.HookEventName == nil {
		return "", 0, nil
	}
	switch *in.HookEventName {
	case GeminiBeforeTool:
		return RuntimeGemini, Pre, nil
	case GeminiAfterTool:
		return RuntimeGemini, Post, nil
	case EventPreToolUse, EventPostToolUse:
		p = Pre
		if *in.HookEventName == EventPostToolUse {
			p = Post
		}
		switch {
		case len(in.TurnID) > 0:
			return RuntimeCodex, p, nil
		case len(in.ToolResult) > 0 || in.Timestamp.Kind() == '"':
			return RuntimeCopilot, p, alike("Copilot CLI", "Claude Code")
		}
		return RuntimeClaude, p, alike("Claude Code", "Codex CLI")
	}
	return "", 0, nil
}

func runtimeKey(name string) string {
	switch name {
	case "Claude Code":
		return RuntimeClaude
	case "Codex CLI":
		return RuntimeCodex
	case "Gemini CLI":
		return RuntimeGemini
	}
	return RuntimeCopilot
}
