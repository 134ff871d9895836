package schema

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/internal/testkit"
	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

const metaschemaURL = "https://json-schema.org/draft/2020-12/schema"

// repoRoot is where the fixtures live, relative to this package.
const repoRoot = ".."

func TestSchemaCompiles(t *testing.T) {
	if _, err := compile(schemaJSON); err != nil {
		t.Fatalf("agc.schema.json does not compile: %v", err)
	}
	// Validate touches the compiled schema; it must not panic.
	if vs := Validate(map[string]any{}); len(vs) == 0 {
		t.Fatal("an empty object passed the schema")
	}
}

func TestSchemaIsValidDraft2020_12(t *testing.T) {
	doc := decodeJSON(t, schemaJSON)
	meta, err := jsonschema.NewCompiler().Compile(metaschemaURL)
	if err != nil {
		t.Fatalf("compile the draft 2020-12 metaschema: %v", err)
	}
	if err := meta.Validate(doc); err != nil {
		t.Fatalf("agc.schema.json is not a valid draft 2020-12 schema:\n%v", err)
	}
	root := doc.(map[string]any)
	if got := root["$schema"]; got != metaschemaURL {
		t.Errorf("$schema = %v, want %s", got, metaschemaURL)
	}
	if got := root["$id"]; got != ID {
		t.Errorf("$id = %v, want %s", got, ID)
	}
	for name, def := range root["$defs"].(map[string]any) {
		if title, _ := def.(map[string]any)["title"].(string); title == "" {
			t.Errorf("$defs/%s has no title", name)
		}
	}
}

// The metaschema check above must be able to fail.
func TestCompileRejectsBrokenSchema(t *testing.T) {
	broken := []byte(`{"$schema": "` + metaschemaURL + `", "type": 5}`)
	if _, err := compile(broken); err == nil {
		t.Fatal("a schema with \"type\": 5 compiled")
	}
}

func TestJSONIsACopy(t *testing.T) {
	b := JSON()
	if !bytes.Equal(b, schemaJSON) {
		t.Fatal("JSON() differs from the embedded schema")
	}
	b[0] = 'x'
	if JSON()[0] == 'x' {
		t.Fatal("JSON() hands out the embedded bytes")
	}
}

func TestValidFixtures(t *testing.T) {
	files := testkit.Glob(t, filepath.Join(repoRoot, "fixtures", "agc", "valid", "*.json"))
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			vs, err := ValidateBytes(data)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range vs {
				t.Errorf("%s: %s (%s)", f, v, v.Keyword)
			}
		})
	}
}

func TestValidateBytesRejectsNonJSON(t *testing.T) {
	for _, in := range []string{"", "{", `{"agc":"0.1"} {}`, "nul"} {
		if _, err := ValidateBytes([]byte(in)); err == nil {
			t.Errorf("ValidateBytes(%q): no error", in)
		}
	}
}

func decodeJSON(t testing.TB, data []byte) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("decode JSON: %v", err)
	}
	return v
}

func readFixture(t testing.TB, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestSortsAndEscapes(t *testing.T) {
	if got := pointer([]string{"a/b", "c~d", "0"}); got != "/a~1b/c~0d/0" {
		t.Errorf("pointer = %q", got)
	}
	in := []string{"/findings/10/id", "", "/findings/2/id", "/attempt", "/findings/2"}
	slices.SortFunc(in, comparePointers)
	want := []string{"", "/attempt", "/findings/2", "/findings/2/id", "/findings/10/id"}
	if diff := cmp.Diff(want, in); diff != "" {
		t.Errorf("pointer order (-want +got):\n%s", diff)
	}
}

func TestViolationsAreSortedByPointer(t *testing.T) {
	doc := decodeJSON(t, readFixture(t, "fixtures/agc/valid/block-patch.json")).(map[string]any)
	doc["verdict"] = "stop"
	doc["attempt"] = map[string]any{"n": json.Number("0"), "budget": json.Number("0")}
	findings := doc["findings"].([]any)
	findings[1].(map[string]any)["severity"] = "major"
	vs := Validate(doc)
	var got []string
	for _, v := range vs {
		got = append(got, v.Pointer)
	}
	want := []string{"/attempt/budget", "/attempt/n", "/findings/1/severity", "/verdict"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pointers (-want +got):\n%s", diff)
	}
	if !strings.Contains(vs[0].Text(vs[0].Message), "/attempt/budget: must be at least 1, got 0") {
		t.Errorf("String() = %q", vs[0].Text(vs[0].Message))
	}
}

func BenchmarkValidateBytes(b *testing.B) {
	data := readFixture(b, "fixtures/agc/valid/block-patch.json")
	for b.Loop() {
		if vs, err := ValidateBytes(data); err != nil || len(vs) != 0 {
			b.Fatal(vs, err)
		}
	}
}

func BenchmarkValidateBroken(b *testing.B) {
	doc := decodeJSON(b, []byte(strings.Replace(baseDoc, `"block"`, `"stop"`, 1)))
	for b.Loop() {
		if vs := Validate(doc); len(vs) != 1 {
			b.Fatal(vs)
		}
	}
}
