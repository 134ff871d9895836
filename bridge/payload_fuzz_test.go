package bridge

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agcgate/agc-action/internal/testkit"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
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

// FuzzCopilotToolArgs: Copilot CLI's toolArgs reads the same whether it
// comes as the documented JSON string or as the object 1.0.102 sends:
// both are refused, or both give the same tool input, an object.
func FuzzCopilotToolArgs(f *testing.F) {
	for _, s := range []string{`{"command":"cat hello.txt","description":"read"}`, `{}`, `[]`, `"x"`, `{"a":{"b":[1,2]}}`, `{"a":1,"a":2}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, args string) {
		str, err := json.Marshal(args)
		if err != nil {
			return // not UTF-8: no payload carries it as a string
		}
		for _, p := range []Phase{Pre, Post} {
			asObject, errObject := ReadToolCall(RuntimeCopilot, p, []byte(`{"toolName":"bash","toolArgs":`+args+`}`))
			asString, errString := ReadToolCall(RuntimeCopilot, p, []byte(`{"toolName":"bash","toolArgs":`+string(str)+`}`))
			if errObject != nil {
				if errString == nil && asString.ToolInput.Kind() == '{' && jsontext.Value(args).IsValid() {
					t.Fatalf("toolArgs %q: refused as an object (%v), read as a string", args, errObject)
				}
				continue
			}
			if errString != nil {
				t.Fatalf("toolArgs %q: read as an object, refused as a string: %v", args, errString)
			}
			if !sameJSON(asObject.ToolInput, asString.ToolInput) {
				t.Fatalf("toolArgs %q: %s as an object, %s as a string", args, asObject.ToolInput, asString.ToolInput)
			}
		}
	})
}
