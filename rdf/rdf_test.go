package rdf

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/internal/testkit"

	"github.com/google/go-cmp/cmp"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/review"
)

const (
	fixtureDir = "../fixtures/rdf"
	everyField = fixtureDir + "/every-field.rdjson"
	everyLine  = fixtureDir + "/every-field.rdjsonl"
	helloJS    = "const greeting = \"haya15busa\";\nvar unused = 1;\nfunction f(a,b){return a+b}\nconst 𐐀x = 1;\n"
)

func read(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// convert reads a fixture as rdjson or rdjsonl and converts it with the
// fixtures directory as the source root.
func convert(t *testing.T, name string) []*agc.Response {
	t.Helper()
	data := read(t, name)
	read := ReadResult
	if strings.HasSuffix(name, "l") {
		read = ReadLines
	}
	res, lints, err := read(name, data)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lints {
		t.Logf("lint: %s", l)
	}
	rs, more := ToAGC(res, ToAGCOptions{FS: os.DirFS(fixtureDir), Input: data})
	if len(more) > 0 {
		t.Errorf("conversion lint: %v", more)
	}
	return rs
}

// apply applies a finding's one edit to hello.js as GitHub applies the
// suggestion made of it: whole lines replaced.
func apply(t *testing.T, e agc.Edit) string {
	t.Helper()
	c, err := review.ResolveEdit([]byte(helloJS), e)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(helloJS, "\n")
	return strings.Join(lines[:c.Start-1], "") + c.New + strings.Join(lines[c.End:], "")
}

// TestEveryField reads every field of the definition, in rdjson and in
// rdjsonl, into the same findings.
func TestEveryField(t *testing.T) {
	type want struct {
		class, location, severity string
		after                     string // hello.js after the suggestion; "" no patch
		why                       string // substring
	}
	wants := []want{
		{"typo", "src/hello.js:1:23-1:25", agc.Blocking, strings.Replace(helloJS, "15", "14", 1), "Rule typo of demo-lint (https://example.com/rules/typo)."},
		{"no-unused-vars", "src/hello.js:2", agc.Advisory, strings.Replace(helloJS, "var unused = 1;\n", "", 1), "Rule no-unused-vars of demo-lint."},
		{"spacing", "src/hello.js:2-3", agc.Advisory, strings.Replace(helloJS, "f(a,b){return a+b}", "f(a, b){ return a+b }", 1), "Rule spacing"},
		{"unidentified-rule", "src/hello.js:3:10-3:11", agc.Advisory, "", "Related: src/globals.js:7:1 (the global f)."},
		{"ascii-names", "src/hello.js:4:7-4:10", agc.Advisory, strings.Replace(helloJS, "𐐀x", "ux", 1), "Rule ascii-names"},
		{"license", ".", agc.Blocking, "", "Rule license of demo-lint."},
	}
	for _, name := range []string{everyField, everyLine} {
		t.Run(name, func(t *testing.T) {
			rs := convert(t, name)
			if len(rs) != 1 || rs[0].Gate.ID != "demo-lint" || rs[0].Verdict != agc.Block || len(rs[0].Findings) != len(wants) {
				t.Fatalf("%d responses: %+v", len(rs), rs)
			}
			for i, w := range wants {
				f := rs[0].Findings[i]
				if f.Class != w.class || f.Location != w.location || f.Severity != w.severity || !strings.Contains(f.Why, w.why) {
					t.Errorf("finding %d: class %q location %q severity %q why %q; want %+v", i, f.Class, f.Location, f.Severity, f.Why, w)
				}
				switch {
				case w.after == "" && f.Remedy.Kind != agc.RemedyDelegate:
					t.Errorf("finding %d: remedy %s, want delegate", i, f.Remedy.Kind)
				case w.after != "" && (f.Remedy.Kind != agc.RemedyPatch || len(f.Remedy.Edits) != 1):
					t.Errorf("finding %d: remedy %+v, want one edit", i, f.Remedy)
				case w.after != "":
					if got := apply(t, f.Remedy.Edits[0]); got != w.after {
						t.Errorf("finding %d: applied\n%s\nwant\n%s", i, got, w.after)
					}
				}
			}
		})
	}
}

// TestOffsets: ranges exactly as the definition says, on "abc\r\ndef\r\nghi\r\n"
// and on a line with a 4-byte character.
func TestOffsets(t *testing.T) {
	crlf := []byte("abc\r\ndef\r\nghi\r\n")
	pos := func(l, c int) *Position { return &Position{Line: l, Column: c} }
	tests := []struct {
		name string
		data []byte
		rg   Range
		want string
		bad  bool
	}{
		{"line only: the line", crlf, Range{Start: Position{Line: 2}}, "def", false},
		{"line to the same line", crlf, Range{Start: Position{Line: 2}, End: pos(2, 0)}, "def", false},
		{"lines, the end line included", crlf, Range{Start: Position{Line: 1}, End: pos(2, 0)}, "abc\r\ndef", false},
		{"to the next line's start keeps the break", crlf, Range{Start: Position{Line: 1}, End: pos(2, 1)}, "abc\r\n", false},
		{"columns without the break", crlf, Range{Start: *pos(1, 1), End: pos(1, 4)}, "abc", false},
		{"exclusive end", []byte("haya14busa"), Range{Start: *pos(1, 5), End: pos(1, 7)}, "14", false},
		{"no end with a column: zero length", []byte("hayabusa"), Range{Start: *pos(1, 5)}, "", false},
		{"bytes of UTF-8", []byte("a𐐀b"), Range{Start: *pos(1, 2), End: pos(1, 6)}, "𐐀", false},
		{"end of file", crlf, Range{Start: *pos(4, 1)}, "", false},
		{"past the line", crlf, Range{Start: *pos(1, 9)}, "", true},
		{"past the file", crlf, Range{Start: *pos(7, 1)}, "", true},
		{"no line", crlf, Range{Start: *pos(0, 1)}, "", true},
	}
	for _, tt := range tests {
		s, e, ok := offsets(tt.data, &tt.rg, nil)
		if ok == tt.bad || ok && string(tt.data[s:e]) != tt.want {
			t.Errorf("%s: ok %v, %q; want %q", tt.name, ok, tt.data[s:e], tt.want)
		}
	}
}

// TestSeverities: names, numbers, other spellings (lint) and nonsense.
func TestSeverities(t *testing.T) {
	tests := []struct {
		in   string
		want Severity
		lint string
	}{
		{`"ERROR"`, SeverityError, ""}, {`"WARNING"`, SeverityWarning, ""}, {`"INFO"`, SeverityInfo, ""},
		{`"UNKNOWN_SEVERITY"`, SeverityUnknown, ""}, {`0`, SeverityUnknown, ""}, {`1`, SeverityError, ""},
		{`2`, SeverityWarning, ""}, {`3`, SeverityInfo, ""},
		{`"error"`, SeverityError, `spelled "ERROR"`}, {`"warn"`, SeverityWarning, "not a name"},
		{`7`, SeverityUnknown, "is not one of"}, {`"fatal"`, SeverityUnknown, "is not one of"}, {`true`, SeverityUnknown, "is not one of"},
	}
	for _, tt := range tests {
		res, lints, err := ReadLines("x.rdjsonl", []byte(`{"message":"m","severity":`+tt.in+`}`))
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Diagnostics[0].Severity; got != tt.want {
			t.Errorf("%s: %s, want %s", tt.in, got, tt.want)
		}
		text := ""
		for _, l := range lints {
			text += l.String()
		}
		if tt.lint == "" && text != "" || !strings.Contains(text, tt.lint) {
			t.Errorf("%s: lint %q, want %q", tt.in, text, tt.lint)
		} else if tt.lint != "" && !strings.HasPrefix(text, "x.rdjsonl:1:27: /severity: ") {
			t.Errorf("%s: lint %q is not placed", tt.in, text)
		}
	}
}

// TestBadInput: an input that cannot be read is an error naming its place.
func TestBadInput(t *testing.T) {
	tests := []struct {
		name, in string
		lines    bool
		want     string
	}{
		{"syntax", "{\"diagnostics\": [\n  {\"message\": }\n]}", false, "in.rdjson:2:16: json.syntax: invalid character '}' looking for beginning of value"},
		{"not an object", `[1]`, false, "in.rdjson:1:1: an rdjson input is one DiagnosticResult object, not an array"},
		{"diagnostics not an array", `{"diagnostics": {}}`, false, "in.rdjson:1:17: /diagnostics: diagnostics must be an array, not an object"},
		{"a diagnostic not an object", `{"diagnostics": [{}, "x"]}`, false, "in.rdjson:1:22: /diagnostics/1: a diagnostic must be an object, not a string"},
		{"an AGC response", `{"agc": "0.1"}`, false, "in.rdjson:1:1: this is an AGC response, not rdjson (read it with --from agc)"},
		{"trailing data", `{"diagnostics": []} {}`, false, "in.rdjson:1:21: json.syntax: data after the JSON value"},
		{"invalid UTF-8", "{\"diagnostics\": [{\"message\": \"\xff\"}]}", false, "in.rdjson:1:31: json.syntax: invalid UTF-8"},
		{"truncated", `{"diagnostics": [`, false, "in.rdjson:1:18: json.syntax: unexpected EOF"},
		{"a line not an object", "{\"message\": \"a\"}\n\n[]\n", true, "in.rdjson:3: an rdjsonl line is one Diagnostic object, not an array"},
		{"a line's syntax", "{\"message\": \"a\"}\n{\"message\" \"b\"}\n", true, "in.rdjson:2:13: json.syntax: invalid character '\"' after object key"},
		{"too deep", strings.Repeat("[", 100), false, "nesting deeper than 64"},
	}
	for _, tt := range tests {
		read := ReadResult
		if tt.lines {
			read = ReadLines
		}
		_, _, err := read("in.rdjson", []byte(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
}

// TestLenientFields: what the definition does not allow is read with lint
// naming its place.
func TestLenientFields(t *testing.T) {
	in := `{"diagnostics": [{"message": 5, "location": {"path": "a.go", "range": {"start": {"line": "3", "column": -1}, "end": {"line": 2}}},
	  "suggestions": [{"text": "x"}, 7], "code": "c"}]}`
	res, lints, err := ReadResult("in.rdjson", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	d := res.Diagnostics[0]
	if d.Message != "5" || d.Location.Range.Start.Line != 3 || d.Location.Range.End != nil || len(d.Suggestions) != 0 || d.Code != nil {
		t.Errorf("read %+v", d)
	}
	got := testkit.Strings(lints)
	want := []string{
		"in.rdjson:1:30: /diagnostics/0/message: message should be a string; read as \"5\"",
		"in.rdjson:1:105: /diagnostics/0/location/range/start/column: column should be an integer from 0 to 2147483647, not -1; ignored",
		"in.rdjson:1:117: /diagnostics/0/location/range/end: the range ends before it starts; read as ending at its start",
		"in.rdjson:2:47: /diagnostics/0/code: code should be an object, not a string; ignored",
		"in.rdjson:2:20: /diagnostics/0/suggestions/0: a suggestion without a range; ignored",
		"in.rdjson:2:35: /diagnostics/0/suggestions/1: a suggestion should be an object, not a number; ignored",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lint (-want +got):\n%s", diff)
	}
}

// TestRoundTrip: rdjson → AGC (as JSON) → rdjson keeps every diagnostic,
// each with its result's source filled in.
func TestRoundTrip(t *testing.T) {
	rs := convert(t, everyField)
	var back []*agc.Response
	for _, r := range rs {
		b, err := agc.Encode(r)
		if err != nil {
			t.Fatal(err)
		}
		d, err := agc.Decode("back.json", b, agc.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		back = append(back, d)
	}
	var out strings.Builder
	if err := Write(&out, back, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	var in, got struct {
		Source      map[string]any   `json:"source"`
		Diagnostics []map[string]any `json:"diagnostics"`
	}
	if err := json.Unmarshal(read(t, everyField), &in); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(out.String()), &got); err != nil {
		t.Fatal(err)
	}
	for _, d := range in.Diagnostics {
		if _, ok := d["source"]; !ok {
			d["source"] = in.Source
		}
	}
	if diff := cmp.Diff(in.Diagnostics, got.Diagnostics); diff != "" {
		t.Errorf("diagnostics changed (-in +out):\n%s", diff)
	}
}

// TestWriteFromAGC: a finding not read from rdjson becomes a diagnostic,
// its patch a suggestion with the range of its find text.
func TestWriteFromAGC(t *testing.T) {
	r := &agc.Response{Gate: agc.Gate{ID: "g"}, Findings: []agc.Finding{{
		Class: "typo", Location: "src/hello.js:1", What: "typo", Severity: agc.Blocking,
		Remedy: agc.Remedy{Kind: agc.RemedyPatch, Edits: []agc.Edit{{Path: "src/hello.js", Find: "15", Replace: "14"}}},
	}, {Class: "c", Location: "src/hello.js:2-3", What: "w", Severity: agc.Advisory}}}
	var out strings.Builder
	if err := Write(&out, []*agc.Response{r}, WriteOptions{FS: os.DirFS(fixtureDir)}); err != nil {
		t.Fatal(err)
	}
	var got, want any
	_ = json.Unmarshal([]byte(out.String()), &got)
	_ = json.Unmarshal([]byte(`{"source":{"name":"g"},"diagnostics":[
	  {"message":"typo","severity":"ERROR","source":{"name":"g"},"code":{"value":"typo"},
	   "location":{"path":"src/hello.js","range":{"start":{"line":1}}},
	   "suggestions":[{"range":{"start":{"line":1,"column":23},"end":{"line":1,"column":25}},"text":"14"}]},
	  {"message":"w","severity":"WARNING","source":{"name":"g"},"code":{"value":"c"},
	   "location":{"path":"src/hello.js","range":{"start":{"line":2},"end":{"line":3}}}}]}`), &want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
