package subject

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

func TestToolCall(t *testing.T) {
	call := `{"tool_name":"Bash","tool_input":{"command":"rm -rf build","timeout":1E3},"session_id":"s1"}`
	same := `{ "session_id":"s2", "tool_input":{"timeout":1000,"command":"rm -rf build"}, "tool_name":"Bash" }`
	scope := []string{"/tool_name", "/tool_input"}
	a, err := ToolCall([]byte(call), scope)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ToolCall([]byte(same), []string{"/tool_input", "/tool_name", "/tool_name"})
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Errorf("same fields in scope, other order and spelling: %s != %s", a, b)
	}
	// The document hashed, spelled out: RFC 8785 orders members, writes 1E3 as 1000.
	doc := `{"domain":"agc-action/fingerprint/tool-call/1","fields":{"/tool_input":{"command":"rm -rf build","timeout":1000},"/tool_name":"Bash"},"scope":["/tool_input","/tool_name"]}`
	h := sha256.Sum256([]byte(doc))
	if want := "sha256:" + hex.EncodeToString(h[:]); a != want {
		t.Errorf("ToolCall = %s, want %s (the SHA-256 of %s)", a, want, doc)
	}
	differ := map[string][2]string{
		"other command":      {strings.Replace(call, "rm -rf build", "rm -rf /", 1), ""},
		"whole call":         {call, "*"},
		"field gone":         {`{"tool_name":"Bash","session_id":"s1"}`, ""},
		"null is not absent": {`{"tool_name":"Bash","tool_input":null}`, ""},
	}
	for name, v := range differ {
		sc := scope
		if v[1] == "*" {
			sc = nil
		}
		got, err := ToolCall([]byte(v[0]), sc)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got == a {
			t.Errorf("%s: same fingerprint as the original", name)
		}
	}
}

func TestToolCallPointers(t *testing.T) {
	call := []byte(`{"a/b":{"~x":[10,20]},"list":[1,2]}`)
	one, _ := ToolCall(call, []string{"/a~1b/~0x/1"})
	two, _ := ToolCall([]byte(`{"a/b":{"~x":[99,20]}}`), []string{"/a~1b/~0x/1"})
	if one != two {
		t.Errorf("pointer to the same element: %s != %s", one, two)
	}
	for _, bad := range [][2]string{{`{"a":1}`, "a"}, {`{"a":1,"a":2}`, ""}, {`{"a":`, ""}} {
		if _, err := ToolCall([]byte(bad[0]), []string{bad[1]}); err == nil {
			t.Errorf("ToolCall(%s, %q) = nil error", bad[0], bad[1])
		}
	}
}

// TestToolCallPinned pins a tool-call fingerprint, computed before the
// document it hashes was built with json.Marshal instead of by hand: a
// verdict bound to it must stay bound.
func TestToolCallPinned(t *testing.T) {
	call := `{"tool_name":"Bash","tool_input":{"command":"ls -la","z":[1,2.50,{"b":"\u00e9","a":null}]},"x":"<>&\u2028"}`
	got, err := ToolCall([]byte(call), []string{"/tool_name", "/tool_input/z/2", "/missing"})
	if want := "sha256:e5e76c7ee0bbbc16df6fbc2668ce7a8dcf449d88c35fa1856c77e7c9c834d144"; got != want || err != nil {
		t.Errorf("ToolCall = %s, %v; want %s", got, err, want)
	}
}

func TestArtifact(t *testing.T) {
	if got, want := Artifact([]byte("abc")), "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"; got != want {
		t.Errorf("Artifact(abc) = %s, want %s", got, want)
	}
}

func FuzzToolCall(f *testing.F) {
	f.Add([]byte(`{"tool_name":"Bash","tool_input":{"command":"ls"}}`), "/tool_input/command")
	f.Add([]byte(`[1,{"a":[true,null]}]`), "/1/a/0")
	f.Add([]byte(`{"a":1.0e2}`), "")
	f.Fuzz(func(t *testing.T, call []byte, ptr string) {
		a, err := ToolCall(call, []string{ptr})
		if err != nil {
			return
		}
		b, err := ToolCall(call, []string{ptr, ptr})
		if err != nil || a != b {
			t.Fatalf("duplicate pointer changed the fingerprint: %s, %s, %v", a, b, err)
		}
	})
}
