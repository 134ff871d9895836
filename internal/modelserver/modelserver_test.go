package modelserver

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/internal/testkit"
)

func post(t *testing.T, url, body string) (*http.Response, string) {
	t.Helper()
	return testkit.Send(t, http.MethodPost, url, strings.NewReader(body), "Content-Type", "application/json")
}

// TestScript: replies come in order, streamed or not, then "done."; every
// request body is recorded; a path it does not serve is listed.
func TestScript(t *testing.T) {
	s := Start(t, Reply{Tool: &ToolCall{ID: "c1", Name: "bash", Arguments: `{"command":"ls"}`}}, Reply{Text: "final"})
	resp, body := post(t, s.URL+"/chat/completions", `{"stream":true,"n":1}`)
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("streamed: Content-Type %q", ct)
	}
	var events []map[string]any
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok || data == "[DONE]" {
			continue
		}
		var ev map[string]any
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			t.Fatalf("event %q: %v", data, err)
		}
		events = append(events, ev)
	}
	if !strings.HasSuffix(body, "data: [DONE]\n\n") || len(events) != 2 {
		t.Fatalf("stream %q", body)
	}
	delta := events[0]["choices"].([]any)[0].(map[string]any)["delta"].(map[string]any)
	call := delta["tool_calls"].([]any)[0].(map[string]any)
	if call["id"] != "c1" || call["function"].(map[string]any)["name"] != "bash" {
		t.Errorf("tool call %v", call)
	}
	if f := events[1]["choices"].([]any)[0].(map[string]any)["finish_reason"]; f != "tool_calls" {
		t.Errorf("finish_reason %v", f)
	}

	for _, want := range []string{"final", "done."} {
		_, body = post(t, s.URL+"/chat/completions", `{"stream":false}`)
		var c struct {
			Choices []struct {
				Message struct {
					Content string `json:"content"`
				} `json:"message"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(body), &c); err != nil || len(c.Choices) != 1 || c.Choices[0].Message.Content != want {
			t.Errorf("reply %q, want %q (%v)", body, want, err)
		}
	}
	if got := s.ChatRequests(); len(got) != 3 || string(got[0]) != `{"stream":true,"n":1}` {
		t.Errorf("recorded %q", got)
	}
	if resp, _ := post(t, s.URL+"/responses", `{}`); resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown path: %s", resp.Status)
	}
	if resp, _ := post(t, s.URL+"/chat/completions", `not json`); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("a body that is not JSON: %s", resp.Status)
	}
	if u := s.Unknown(); len(u) != 1 || u[0] != "POST /v1/responses" {
		t.Errorf("unknown %q", u)
	}
}
