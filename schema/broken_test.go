package schema

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// baseDoc is a valid block response; each broken case edits a copy.
const baseDoc = `{
  "agc": "0.1",
  "gate": {"id": "lint", "kind": "deterministic", "version": "1"},
  "subject": {"kind": "diff", "fingerprint": "sha256:00", "scope": ["src/**"]},
  "verdict": "block",
  "findings": [{
    "id": "lint/style/a.go#F", "class": "style", "location": "a.go#F",
    "what": "F is misnamed.", "why": "Rule style: names are camel case.",
    "severity": "blocking", "status": "new",
    "remedy": {"kind": "patch", "edits": [{"path": "a.go", "find": "f_x", "replace": "fX"}]},
    "check": {"kind": "command", "run": "go vet ./..."}
  }],
  "coverage": {"complete": true, "classes": ["style"]},
  "attempt": {"n": 1, "budget": 3}
}`

// edit sets the value at a JSON pointer to JSON text, or deletes it when
// the text is empty.
type edit struct{ ptr, json string }

type want struct{ ptr, keyword string }

func TestBrokenDocuments(t *testing.T) {
	tests := []struct {
		name  string
		edits []edit
		want  []want
	}{
		{"base document is valid", nil, nil},
		{"missing findings on block",
			[]edit{{"/findings", ""}},
			[]want{{"", "required"}}},
		{"findings absent on allow passes",
			[]edit{{"/verdict", `"allow"`}, {"/findings", ""}},
			nil},
		{"findings absent without a verdict: only verdict is missing",
			[]edit{{"/verdict", ""}, {"/findings", ""}},
			[]want{{"", "required"}}},
		{"bad verdict",
			[]edit{{"/verdict", `"deny"`}},
			[]want{{"/verdict", "enum"}}},
		{"bad severity",
			[]edit{{"/findings/0/severity", `"error"`}},
			[]want{{"/findings/0/severity", "enum"}}},
		{"bad status",
			[]edit{{"/findings/0/status", `"open"`}},
			[]want{{"/findings/0/status", "enum"}}},
		{"bad remedy kind",
			[]edit{{"/findings/0/remedy/kind", `"fix"`}},
			[]want{{"/findings/0/remedy/kind", "enum"}}},
		{"bad check kind",
			[]edit{{"/findings/0/check/kind", `"test"`}},
			[]want{{"/findings/0/check/kind", "enum"}}},
		{"bad subject kind",
			[]edit{{"/subject/kind", `"file"`}},
			[]want{{"/subject/kind", "enum"}}},
		{"bad gate kind",
			[]edit{{"/gate/kind", `"human"`}},
			[]want{{"/gate/kind", "enum"}}},
		{"patch without edits",
			[]edit{{"/findings/0/remedy/edits", ""}},
			[]want{{"/findings/0/remedy", "required"}}},
		{"patch with no edits",
			[]edit{{"/findings/0/remedy/edits", `[]`}},
			[]want{{"/findings/0/remedy/edits", "minItems"}}},
		{"edit without replace",
			[]edit{{"/findings/0/remedy/edits/0/replace", ""}},
			[]want{{"/findings/0/remedy/edits/0", "required"}}},
		{"decide with one option",
			[]edit{{"/findings/0/remedy", `{"kind": "decide", "ask": "@owners", "options": ["yes"]}`}},
			[]want{{"/findings/0/remedy/options", "minItems"}}},
		{"decide without ask",
			[]edit{{"/findings/0/remedy", `{"kind": "decide", "options": ["yes", "no"]}`}},
			[]want{{"/findings/0/remedy", "required"}}},
		{"command remedy without run",
			[]edit{{"/findings/0/remedy", `{"kind": "command"}`}},
			[]want{{"/findings/0/remedy", "required"}}},
		{"rewrite without input",
			[]edit{{"/findings/0/remedy", `{"kind": "rewrite", "applied": true}`}},
			[]want{{"/findings/0/remedy", "required"}}},
		{"rewrite with null input passes",
			[]edit{{"/findings/0/remedy", `{"kind": "rewrite", "input": null, "applied": true}`}},
			nil},
		{"generate without tool",
			[]edit{{"/findings/0/remedy", `{"kind": "generate"}`}},
			[]want{{"/findings/0/remedy", "required"}}},
		{"delegate without role",
			[]edit{{"/findings/0/remedy", `{"kind": "delegate", "authority": "spec §2"}`}},
			[]want{{"/findings/0/remedy", "required"}}},
		{"applied not a boolean",
			[]edit{{"/findings/0/remedy/applied", `"yes"`}},
			[]want{{"/findings/0/remedy/applied", "type"}}},
		{"condition check without condition",
			[]edit{{"/findings/0/check", `{"kind": "condition", "run": "make test"}`}},
			[]want{{"/findings/0/check", "required"}}},
		{"command check without run",
			[]edit{{"/findings/0/check", `{"kind": "command"}`}},
			[]want{{"/findings/0/check", "required"}}},
		{"preview check needs nothing",
			[]edit{{"/findings/0/check", `{"kind": "preview"}`}},
			nil},
		{"attempt.n = 0",
			[]edit{{"/attempt/n", `0`}},
			[]want{{"/attempt/n", "minimum"}}},
		{"attempt.budget not an integer",
			[]edit{{"/attempt/budget", `2.5`}},
			[]want{{"/attempt/budget", "type"}}},
		{"attempt.n beyond 2^53-1",
			[]edit{{"/attempt/n", `9007199254740992`}},
			[]want{{"/attempt/n", "maximum"}}},
		{"agc 0.2",
			[]edit{{"/agc", `"0.2"`}},
			[]want{{"/agc", "const"}}},
		{"a string where an object belongs",
			[]edit{{"/gate", `"lint"`}},
			[]want{{"/gate", "type"}}},
		{"a string where the findings array belongs",
			[]edit{{"/findings", `"none"`}},
			[]want{{"/findings", "type"}}},
		{"empty fingerprint",
			[]edit{{"/subject/fingerprint", `""`}},
			[]want{{"/subject/fingerprint", "minLength"}}},
		{"empty what",
			[]edit{{"/findings/0/what", `""`}},
			[]want{{"/findings/0/what", "minLength"}}},
		{"complete not a boolean",
			[]edit{{"/coverage/complete", `"yes"`}},
			[]want{{"/coverage/complete", "type"}}},
		{"carried holds a number",
			[]edit{{"/carried", `["lint/style/b.go#G", 7]`}},
			[]want{{"/carried/1", "type"}}},
		{"unknown members are allowed",
			[]edit{{"/x-extra", `{"any": 1}`}, {"/findings/0/remedy/x-note", `"hi"`}, {"/gate/owner", `"me"`}},
			nil},
		{"several faults, each reported",
			[]edit{{"/agc", `0.1`}, {"/findings/0/id", ""}, {"/coverage/classes", `"style"`}},
			[]want{{"/agc", "const"}, {"/coverage/classes", "type"}, {"/findings/0", "required"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := applyEdits(t, baseDoc, tc.edits)
			var got []want
			for _, v := range Validate(doc) {
				got = append(got, want{v.Pointer, v.Keyword})
				if v.Message == "" {
					t.Errorf("%s: empty message", v.Pointer)
				}
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("violations (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMessages(t *testing.T) {
	tests := []struct {
		name  string
		edits []edit
		want  string
	}{
		{"findings", []edit{{"/findings", ""}}, `missing property "findings" (required unless verdict is "allow")`},
		{"verdict", []edit{{"/verdict", `"deny"`}}, `value must be one of "allow", "repaired", "block", "escalate"`},
		{"agc", []edit{{"/agc", `"0.2"`}}, `value must be "0.1"`},
		{"type", []edit{{"/gate", `"lint"`}}, `expected an object, got a string`},
		{"integer", []edit{{"/attempt/n", `1.5`}}, `expected an integer, got a number`},
		{"minimum", []edit{{"/attempt/n", `0`}}, `must be at least 1, got 0`},
		{"options", []edit{{"/findings/0/remedy", `{"kind": "decide", "ask": "@o", "options": ["a"]}`}}, `must have at least 2 items, got 1`},
		{"empty", []edit{{"/findings/0/why", `""`}}, `must not be empty`},
		{"patch", []edit{{"/findings/0/remedy/edits", ""}}, `missing property "edits"`},
		{"decide", []edit{{"/findings/0/remedy", `{"kind": "decide"}`}}, `missing properties "ask", "options"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			vs := Validate(applyEdits(t, baseDoc, tc.edits))
			if len(vs) != 1 {
				t.Fatalf("got %d violations, want 1: %v", len(vs), vs)
			}
			if vs[0].Message != tc.want {
				t.Errorf("message = %q, want %q", vs[0].Message, tc.want)
			}
		})
	}
}

func applyEdits(t *testing.T, base string, edits []edit) any {
	t.Helper()
	doc := decodeJSON(t, []byte(base))
	for _, e := range edits {
		var val any
		if e.json != "" {
			v, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(e.json)))
			if err != nil {
				t.Fatalf("edit %s: %v", e.ptr, err)
			}
			val = v
		}
		doc = setPointer(t, doc, strings.Split(e.ptr, "/")[1:], val, e.json == "")
	}
	return doc
}

// setPointer sets (or, with del, removes) the value at the path tokens.
func setPointer(t *testing.T, node any, tokens []string, val any, del bool) any {
	t.Helper()
	if len(tokens) == 0 {
		return val
	}
	switch n := node.(type) {
	case map[string]any:
		if len(tokens) == 1 && del {
			delete(n, tokens[0])
			return n
		}
		n[tokens[0]] = setPointer(t, n[tokens[0]], tokens[1:], val, del)
		return n
	case []any:
		i, err := strconv.Atoi(tokens[0])
		if err != nil || i >= len(n) {
			t.Fatalf("bad index %q", tokens[0])
		}
		n[i] = setPointer(t, n[i], tokens[1:], val, del)
		return n
	}
	t.Fatalf("cannot descend into %T at %q", node, tokens[0])
	return nil
}
