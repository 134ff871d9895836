package bridge

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agcgate/agc-action/internal/testkit"
	"github.com/go-json-experiment/json"
)

func seedHooks(f *testing.F) {
	paths := testkit.Glob(f, filepath.Join("testdata", "hooks", "*", "*.json"))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// FuzzReadToolCall: reading a payload never panics, and what it reads is
// a gate input that encodes, with a tool name and an object of tool input.
func FuzzReadToolCall(f *testing.F) {
	seedHooks(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, rt := range Runtimes {
			for _, p := range []Phase{Pre, Post} {
				tc, err := ReadToolCall(rt, p, data)
				if err != nil {
					continue
				}
				if tc.ToolName == "" || tc.ToolInput.Kind() != '{' || tc.Tool == "" {
					t.Fatalf("%s: read %+v", rt, tc)
				}
				if _, err := json.Marshal(tc); err != nil {
					t.Fatalf("%s: encode the gate input: %v", rt, err)
				}
			}
		}
	})
}

// FuzzDetectRuntime: recognising a payload never panics, and a runtime it
// names reads the payload or says why not, without panicking.
func FuzzDetectRuntime(f *testing.F) {
	seedHooks(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		rt, p, _ := DetectRuntime(data)
		if rt == "" {
			return
		}
		_, _ = ReadToolCall(rt, p, data)
	})
}
