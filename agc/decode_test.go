package agc

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/diag"
	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"
)

func fixtureFiles(t testing.TB) []string {
	var files []string
	err := filepath.WalkDir("../fixtures/agc", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".jsonl")) {
			files = append(files, p)
		}
		return err
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	return files
}

func TestDecodeErrors(t *testing.T) {
	cases := []struct {
		name, in, class, pointer string
		offset                   int64
	}{
		{"empty", "", ClassNoResponse, "", 0},
		{"blank", " \n\t", ClassNoResponse, "", 0},
		{"null", "null", ClassSchema, "", 0},
		{"array", "[]", ClassNoResponse, "", 0},
		{"array of one", "[{}]", ClassSchema, "", 0},
		{"truncated", `{"agc":`, ClassSyntax, "/agc", 7},
		{"duplicate", `{"gate":{"id":"a","id":"b"}}`, ClassDuplicateKey, "/gate/id", 18},
		{"utf8", "{\"agc\":\"\xc3\x28\"}", ClassSyntax, "/agc", 8},
		{"trailing", `{} x`, ClassSyntax, "", 3},
		{"two values", `{} {}`, ClassSyntax, "", 3},
		{"string for object", `{"gate":"x"}`, ClassSchema, "/gate", 8},
		{"number for string", `{"verdict":1}`, ClassSchema, "/verdict", 11},
		{"bool for int", `{"attempt":{"n":true}}`, ClassSchema, "/attempt/n", 16},
		{"deep", strings.Repeat(`{"a":`, 200) + "1" + strings.Repeat("}", 200), ClassTooDeep, "", -2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode("f.json", []byte(c.in), Limits{})
			var e *diag.Error
			if !errors.As(err, &e) {
				t.Fatalf("want *diag.Error, got %v", err)
			}
			if e.Class != c.class {
				t.Errorf("class %s, want %s (%v)", e.Class, c.class, err)
			}
			if c.offset != -2 && (e.Pointer != c.pointer || e.Offset != c.offset) {
				t.Errorf("place %q @%d, want %q @%d (%v)", e.Pointer, e.Offset, c.pointer, c.offset, err)
			}
			if !strings.HasPrefix(err.Error(), "f.json") || strings.Contains(err.Error(), "\n") {
				t.Errorf("error must be one line naming the file: %q", err)
			}
		})
	}
}

func TestDecodeLimits(t *testing.T) {
	in := []byte(`{"agc":"0.1"}`)
	if _, err := Decode("f", in, Limits{MaxBytes: 5}); err == nil || !strings.Contains(err.Error(), ClassTooLarge) {
		t.Errorf("size: %v", err)
	}
	if _, err := Decode("f", []byte(`{"a":{"b":{}}}`), Limits{MaxDepth: 2}); err == nil || !strings.Contains(err.Error(), ClassTooDeep) {
		t.Errorf("depth: %v", err)
	}
	if _, err := Decode("f", []byte(`{"a":{"b":{}}}`), Limits{MaxDepth: 3}); err != nil {
		t.Errorf("depth at the limit: %v", err)
	}
}

// TestRoundTrip: decoding and encoding keeps every member, unknown ones
// included, for every fixture that decodes.
func TestRoundTrip(t *testing.T) {
	for _, f := range fixtureFiles(t) {
		data, _ := os.ReadFile(f)
		r, err := Decode(f, data, Limits{})
		if err != nil {
			continue
		}
		out, err := Encode(r)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var a, b any
		if err := json.Unmarshal(data, &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(out, &b); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(a, b); d != "" {
			t.Errorf("%s: round trip differs (-in +out):\n%s", f, d)
		}
	}
}

func TestUnknownMembersKept(t *testing.T) {
	in := `{"agc":"0.1","x-extra":{"deep":[1,2]},"gate":{"id":"g","kind":"judgment","note":"hi"}}`
	r, err := Decode("f", []byte(in), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(r.Unknown), `"x-extra"`) || !strings.Contains(string(r.Gate.Unknown), `"note"`) {
		t.Fatalf("unknown members dropped: %s / %s", r.Unknown, r.Gate.Unknown)
	}
}

func TestDecodeAll(t *testing.T) {
	one := `{"agc":"0.1","verdict":"allow"}`
	cases := []struct {
		name, in string
		n        int
		where    []string
	}{
		{"object", one, 1, []string{"f"}},
		{"array", "[" + one + ",\n" + one + "]", 2, []string{"f#/0", "f#/1"}},
		{"lines", one + "\n\n" + one + "\n", 2, []string{"f:1", "f:3"}},
		{"lines with a bad one", one + "\n{\"agc\":\n", 2, []string{"f:1", "f:2"}},
	}
	for _, c := range cases {
		docs, err := DecodeAll("f", []byte(c.in), Limits{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(docs) != c.n {
			t.Fatalf("%s: %d docs", c.name, len(docs))
		}
		for i, d := range docs {
			if d.Where() != c.where[i] {
				t.Errorf("%s: doc %d at %s, want %s", c.name, i, d.Where(), c.where[i])
			}
		}
	}
	docs, _ := DecodeAll("f", []byte("["+one+`,{"agc":1}]`), Limits{})
	var e *diag.Error
	if !errors.As(docs[1].Err, &e) || e.Pointer != "/1/agc" {
		t.Errorf("error inside an array must carry the element's pointer: %v", docs[1].Err)
	}
}

// FuzzDecode: no input panics the decoder; what decodes encodes and
// decodes again to the same value.
func FuzzDecode(f *testing.F) {
	for _, p := range fixtureFiles(f) {
		data, _ := os.ReadFile(p)
		f.Add(data)
	}
	f.Add([]byte(`{"verdict":"block","verdict":"allow"}`))
	f.Add([]byte("[{}, null]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := DecodeAll("fuzz", data, Limits{MaxDepth: 64})
		if err != nil {
			checkPlace(t, data, err)
			return
		}
		for _, d := range docs {
			if d.Response == nil {
				if d.Err == nil {
					t.Fatal("no response and no error")
				}
				checkPlace(t, data, d.Err)
				continue
			}
			out, err := Encode(d.Response)
			if err != nil {
				t.Fatalf("encode: %v", err)
			}
			r2, err := Decode("again", out, Limits{MaxDepth: 200})
			if err != nil {
				t.Fatalf("re-decode of our own output: %v\n%s", err, out)
			}
			out2, _ := Encode(r2)
			if string(out) != string(out2) {
				t.Fatalf("encoding is not stable:\n%s\n%s", out, out2)
			}
		}
	})
}

// TestErrorPlace: an error names the line and column of its byte in the
// whole file, also for a response inside an array or on a JSON Lines line.
func TestErrorPlace(t *testing.T) {
	one := `{"agc":"0.1","verdict":"allow"}`
	_, err := Decode("f.json", []byte("{\n  \"gate\": \"x\"\n}"), Limits{})
	if want := "f.json:2:11: /gate: schema: expected an object, got a string"; err == nil || err.Error() != want {
		t.Errorf("Decode: %v, want %s", err, want)
	}
	docs, _ := DecodeAll("a.json", []byte("[\n  "+one+",\n  {\"agc\": 1}\n]"), Limits{})
	if want := "a.json:3:11: /1/agc: schema: expected a string, got a number"; docs[1].Err == nil || docs[1].Err.Error() != want {
		t.Errorf("array: %v, want %s", docs[1].Err, want)
	}
	docs, _ = DecodeAll("l.jsonl", []byte(one+"\n"+one+"\n{\"agc\": \"0.1\",}\n"), Limits{})
	if want := "l.jsonl:3:14: json.syntax: invalid character ',' at start of value"; docs[2].Err == nil || docs[2].Err.Error() != want {
		t.Errorf("JSON Lines: %v, want %s", docs[2].Err, want)
	}
}

// checkPlace: an error that knows its byte names that byte's line and
// column in the whole file.
func checkPlace(t *testing.T, data []byte, err error) {
	var e *diag.Error
	if !errors.As(err, &e) || !e.HasOffset() {
		return
	}
	if at := diag.At(data, e.Offset); at.Line != e.Line || at.Column != e.Column || at.Offset != e.Offset {
		t.Fatalf("%v: byte %d is at %d:%d", err, e.Offset, at.Line, at.Column)
	}
}
