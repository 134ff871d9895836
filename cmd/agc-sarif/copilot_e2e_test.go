package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/internal/modelserver"
	"github.com/agcgate/agc-action/internal/testkit"
	"github.com/agcgate/agc-action/render"
)

// TestCopilotPostToolUseEndToEnd runs the real GitHub Copilot CLI 1.0.102
// offline (COPILOT_OFFLINE, a scripted model on loopback as its provider)
// with a postToolUse command hook calling the built
// "agc-sarif hook copilot --event postToolUse -- GATE". The model asks to
// run a shell command that prints a file; the test then reads what the
// model was sent with its second request. A gate answering block: the
// file's text is withheld, and the model reads that the call ran, the §12
// rendering and the AGC JSON. A gate answering allow: the model reads the
// tool's result and nothing from AGC.
func TestCopilotPostToolUseEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Copilot CLI; skipped under -short")
	}
	copilot := testkit.Copilot(t)
	goBin, err := exec.LookPath("go")
	if err != nil {
		testkit.Missing(t, "the go command", err)
	}
	dir := t.TempDir()
	agcSarif := filepath.Join(dir, "agc-sarif")
	build := exec.Command(goBin, "build", "-o", agcSarif, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	// One home for both runs: Copilot CLI unpacks its package into it
	// once. The hook is a user-level hook in its settings.json.
	home := filepath.Join(dir, "home")
	work := filepath.Join(dir, "work")
	for _, d := range []string{filepath.Join(home, ".copilot"), work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	const secret = "the file's text, which a block must withhold"
	writeFile(t, filepath.Join(work, "notes.txt"), secret+"\n")
	gate := filepath.Join(dir, "gate.sh")
	answer := filepath.Join(dir, "answer.json")
	gateInput := filepath.Join(dir, "gate-input.json")
	writeFile(t, gate, "#!/bin/sh\ncat > '"+gateInput+"'\ncat '"+answer+"'\n")
	if err := os.Chmod(gate, 0o755); err != nil {
		t.Fatal(err)
	}
	settings, err := json.Marshal(map[string]any{"hooks": map[string]any{"postToolUse": []any{map[string]any{
		"type": "command", "timeoutSec": 30,
		"bash": "'" + agcSarif + "' hook copilot --event postToolUse -- '" + gate + "'"}}}})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(home, ".copilot", "settings.json"), string(settings))

	root := testkit.RepoRoot(t)
	for _, tt := range []struct {
		fixture string
		block   bool
	}{
		{"block-patch.json", true},
		{"allow-empty.json", false},
	} {
		t.Run(tt.fixture, func(t *testing.T) {
			r := testkit.Response(t, filepath.Join(root, "fixtures", "agc", "valid", tt.fixture))
			data, err := os.ReadFile(filepath.Join(root, "fixtures", "agc", "valid", tt.fixture))
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, answer, string(data))
			model := modelserver.Start(t,
				modelserver.Reply{Tool: &modelserver.ToolCall{ID: "call_1", Name: "bash",
					Arguments: `{"command":"cat notes.txt","description":"Read the notes"}`}},
				modelserver.Reply{Text: "Read it."})

			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, copilot, "-p", "Print notes.txt", "--allow-all", "--no-auto-update",
				"--log-dir", filepath.Join(dir, "logs"))
			cmd.Dir = work
			cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "NO_COLOR=1",
				"COPILOT_OFFLINE=true", "COPILOT_AUTO_UPDATE=false",
				"COPILOT_PROVIDER_BASE_URL=" + model.URL, "COPILOT_MODEL=" + modelserver.Model}
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("copilot: %v\n%s\nunanswered requests: %v", err, out, model.Unknown())
			}

			reqs := model.ChatRequests()
			if len(reqs) < 2 {
				t.Fatalf("the model got %d request(s), want 2\n%s", len(reqs), out)
			}
			tool := toolMessage(t, reqs[1], "call_1")

			defer checkGateInput(t, gateInput)
			if !tt.block {
				if !strings.Contains(tool, secret) || strings.Contains(tool, "AGC") {
					t.Errorf("allow: the model read %q; want the tool's result and nothing from AGC", tool)
				}
				return
			}
			var rendering strings.Builder
			if err := render.Text(&rendering, r); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(tool, secret) {
				t.Errorf("block: the model read the withheld result: %q", tool)
			}
			for _, want := range []string{"has run, but its result is withheld", strings.TrimSuffix(rendering.String(), "\n")} {
				if !strings.Contains(tool, want) {
					t.Errorf("block: the model did not read %q in\n%s", want, tool)
				}
			}
			_, js, ok := strings.Cut(tool, "\n\nAGC: ")
			if !ok {
				t.Fatalf("block: no AGC JSON in what the model read:\n%s", tool)
			}
			got, err := agc.Decode("tool message", []byte(js), agc.Limits{})
			if err != nil || got.Gate.ID != r.Gate.ID || got.Verdict != agc.Block {
				t.Errorf("block: the AGC JSON the model read: %v, %+v", err, got)
			}
		})
	}
}

// checkGateInput: the gate read the call in the shared vocabulary, its
// input decoded from the object Copilot CLI sends as toolArgs.
func checkGateInput(t *testing.T, name string) {
	t.Helper()
	var in struct {
		Tool      string         `json:"tool"`
		ToolInput map[string]any `json:"tool_input"`
	}
	if b, err := os.ReadFile(name); err != nil || json.Unmarshal(b, &in) != nil {
		t.Fatalf("the gate's input: %v, %s", err, b)
	}
	if in.Tool != "shell" || in.ToolInput["command"] != "cat notes.txt" {
		t.Errorf("the gate read tool %q, input %v", in.Tool, in.ToolInput)
	}
}

// toolMessage is the content of the tool message answering call id in a
// chat completion request.
func toolMessage(t *testing.T, req []byte, id string) string {
	t.Helper()
	var body struct {
		Messages []struct {
			Role       string `json:"role"`
			ToolCallID string `json:"tool_call_id"`
			Content    any    `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(req, &body); err != nil {
		t.Fatal(err)
	}
	for _, m := range body.Messages {
		if m.Role != "tool" || m.ToolCallID != id {
			continue
		}
		if s, ok := m.Content.(string); ok {
			return s
		}
		b, _ := json.Marshal(m.Content)
		return string(b)
	}
	t.Fatalf("no tool message for %s in %s", id, req)
	return ""
}

func writeFile(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
