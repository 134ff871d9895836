// Package modelserver is a scripted, OpenAI-compatible model on loopback
// for end-to-end tests of agent runtimes: the runtime is pointed at its URL
// (Copilot CLI: COPILOT_PROVIDER_BASE_URL) and gets the replies the test
// scripted, one per request, while the server records every request body,
// so the test can assert what the model was shown.
//
// It answers POST …/chat/completions, streamed (server-sent events) or not,
// and GET …/models. It listens on 127.0.0.1 only and reaches nothing else.
// Only tests import it.
package modelserver

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Model is the model name the server reports.
const Model = "agc-scripted"

// Reply is one scripted answer: a tool call, or final text.
type Reply struct {
	Text string
	Tool *ToolCall
}

// ToolCall asks the runtime to run Name with Arguments (a JSON object).
type ToolCall struct {
	ID, Name  string
	Arguments string
}

// Server is a running scripted model.
type Server struct {
	URL string // the base URL, ending in /v1

	mu       sync.Mutex
	replies  []Reply
	next     int
	requests [][]byte
	unknown  []string
}

// Start runs a server answering with replies in order; past the last it
// answers "done." to every request. It stops when the test ends.
func Start(t testing.TB, replies ...Reply) *Server {
	t.Helper()
	s := &Server{replies: replies}
	ts := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(ts.Close)
	s.URL = ts.URL + "/v1"
	return s
}

// ChatRequests are the bodies of the chat completion requests received,
// in order.
func (s *Server) ChatRequests() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]byte(nil), s.requests...)
}

// Unknown lists the requests the server had no answer for ("METHOD
// PATH"), to explain a runtime that gave up.
func (s *Server) Unknown() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.unknown...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models"):
		writeJSON(w, map[string]any{"object": "list", "data": []any{
			map[string]any{"id": Model, "object": "model", "owned_by": "agc-action"}}})
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/chat/completions"):
		s.chat(w, r)
	default:
		s.mu.Lock()
		s.unknown = append(s.unknown, r.Method+" "+r.URL.Path)
		s.mu.Unlock()
		http.NotFound(w, r)
	}
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var req struct {
		Stream bool `json:"stream"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, "body is not JSON: "+err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.requests = append(s.requests, body)
	reply := Reply{Text: "done."}
	if s.next < len(s.replies) {
		reply = s.replies[s.next]
		s.next++
	}
	n := len(s.requests)
	s.mu.Unlock()

	id := fmt.Sprintf("chatcmpl-%d", n)
	msg := map[string]any{"role": "assistant", "content": reply.Text}
	finish := "stop"
	if reply.Tool != nil {
		callID := reply.Tool.ID
		if callID == "" {
			callID = fmt.Sprintf("call_%d", n)
		}
		msg["content"] = nil
		msg["tool_calls"] = []any{map[string]any{"index": 0, "id": callID, "type": "function",
			"function": map[string]any{"name": reply.Tool.Name, "arguments": reply.Tool.Arguments}}}
		finish = "tool_calls"
	}
	usage := map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
	if !req.Stream {
		writeJSON(w, map[string]any{"id": id, "object": "chat.completion", "created": 0, "model": Model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(delta map[string]any, finish any, usage any) {
		c := map[string]any{"id": id, "object": "chat.completion.chunk", "created": 0, "model": Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
		if usage != nil {
			c["usage"] = usage
		}
		b, _ := json.Marshal(c)
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
	chunk(msg, nil, nil)
	chunk(map[string]any{}, finish, usage)
	io.WriteString(w, "data: [DONE]\n\n")
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}
