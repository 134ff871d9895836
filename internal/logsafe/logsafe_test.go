package logsafe

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/internal/logsafe/logsafetest"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

var attacks = []string{
	"src/x\n::error file=README.md,line=1::INJECTED\n::stop-commands::TOK\ny.go",
	"x\n::error file=a,line=1::INJ",
	"R2 ##[stop-commands]INJ",
	"a\r::warning::carriage return",
	"a\u2028::notice::line separator",
	"  ::add-mask::secret",
	"::error::at the start",
	"\u00a0\u3000::error::after Unicode blanks",
	"\t::debug::after a tab",
	"###[x] and ##[[y]",
	"tab\there, quote \" and backslash \\ stay",
	"\u202eevil\u2066",
	"\xff\xfe not UTF-8",
}

func TestQuoteNameAndLineNeverPrintACommand(t *testing.T) {
	for _, a := range attacks {
		for name, f := range map[string]func(string) string{"Quote": Quote, "Line": Line, "Name": Name} {
			for _, got := range []string{f(a), "carry code-review: changed " + f(a), "  " + f(a) + " modified"} {
				if c := logsafetest.Foreign(got); len(c) > 0 || strings.ContainsAny(got, "\n\r") {
					t.Errorf("%s(%q) printed %q: the runner reads %q", name, a, got, c)
				}
			}
		}
		// Quote stays a Go literal of the same string, and so does Name
		// when it quotes.
		if back, err := strconv.Unquote(Quote(a)); err != nil || back != a {
			t.Errorf("Unquote(Quote(%q)) = %q, %v", a, back, err)
		}
		if n := Name(a); n != a {
			if back, err := strconv.Unquote(n); err != nil || back != a {
				t.Errorf("Unquote(Name(%q)) = %q, %v", a, back, err)
			}
		}
	}
}

func TestLineKeepsPlainText(t *testing.T) {
	for _, s := range []string{"", "src/app.go", `a "quoted" C:\path`, "naïve – ünïcode ✓", "tab\tkept?", "a::b mid-line"} {
		want := s
		if strings.Contains(s, "\t") {
			want = strings.ReplaceAll(s, "\t", `\t`)
		}
		if got := Line(s); got != want {
			t.Errorf("Line(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestNameKeepsPlainPaths(t *testing.T) {
	for _, s := range []string{"src/app.go", "docs/my file.md", "ünïcode/ファイル.go", "a-b_c.d", "<stdin>", ".github/review.md"} {
		if got := Name(s); got != s {
			t.Errorf("Name(%q) = %q, want it unchanged", s, got)
		}
	}
	for _, s := range []string{"", " lead", "trail ", `"quoted"`, "a::b", "a##[b", "new\nline", "nbsp\u00a0", "bidi\u202e"} {
		if got := Name(s); got == s || !strings.HasPrefix(got, `"`) {
			t.Errorf("Name(%q) = %q, want it quoted", s, got)
		}
	}
}

func TestJSONIsTheSameValueAndNoCommand(t *testing.T) {
	v := map[string]any{"ruleId": "R2 ##[stop-commands]INJ", "what": "x\n::error file=a,line=1::INJ", "deep": []any{"##[", "a##[b##[c", `\##[`}}
	for _, opts := range [][]json.Options{nil, {jsontext.WithIndent("  ")}} {
		b, err := json.Marshal(v, opts...)
		if err != nil {
			t.Fatal(err)
		}
		b = append(b, '\n')
		lines := append(append(append([]byte{}, b...), b...), "\n  \r\n"...) // JSON Lines, blank lines
		for _, in := range [][]byte{b, lines} {
			got, ok := JSON(in)
			if !ok {
				t.Fatalf("JSON(%s) is not valid", in)
			}
			if c := logsafetest.Foreign(string(got)); len(c) > 0 || bytes.Contains(got, []byte("##[")) {
				t.Errorf("JSON printed %s: the runner reads %q", got, c)
			}
			d := jsontext.NewDecoder(bytes.NewReader(got))
			for {
				var back map[string]any
				if err := json.UnmarshalDecode(d, &back); err != nil {
					break
				}
				if back["ruleId"] != v["ruleId"] || back["what"] != v["what"] {
					t.Errorf("JSON changed the value: %v", back)
				}
			}
		}
	}
	for _, bad := range []string{"{\n::error::x\n}", `{"a":1} ##[error]x`, "not json\n::error::x", `{"a":"b`} {
		if got, ok := JSON([]byte(bad)); ok || string(got) != bad {
			t.Errorf("JSON(%q) = %q, %v: invalid JSON must be reported, unchanged", bad, got, ok)
		}
	}
	if got, ok := JSON(nil); !ok || len(got) != 0 {
		t.Errorf("JSON of nothing = %q, %v", got, ok)
	}
}

func TestLines(t *testing.T) {
	in := "POST /x HTTP/1.1\nX-A: ##[error]INJ\n::warning::INJ\r::error::cr\n\n{\"a\":1}\n"
	got := string(Lines([]byte(in)))
	if c := logsafetest.Foreign(got); len(c) > 0 {
		t.Errorf("Lines printed %q: the runner reads %q", got, c)
	}
	if !strings.HasPrefix(got, "POST /x HTTP/1.1\n") || !strings.HasSuffix(got, "\n\n{\"a\":1}\n") || strings.Count(got, "\n") != strings.Count(in, "\n") {
		t.Errorf("Lines changed plain lines or line breaks: %q", got)
	}
}

var tokenLine = regexp.MustCompile(`^::stop-commands::([0-9a-f]{32})$`)

func TestBlock(t *testing.T) {
	text := "finding: x\n::error file=a,line=1::INJ\nR2 ##[stop-commands]INJ" // no final newline
	var b bytes.Buffer
	if err := Block(&b, true, []byte(text)); err != nil {
		t.Fatal(err)
	}
	if c := logsafetest.Foreign(b.String()); len(c) > 0 {
		t.Errorf("the runner reads %q in\n%s", c, b.String())
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	m := tokenLine.FindStringSubmatch(lines[0])
	if m == nil {
		t.Fatalf("first line %q is not ::stop-commands::TOKEN", lines[0])
	}
	if last := lines[len(lines)-1]; last != "::"+m[1]+"::" {
		t.Fatalf("last line %q does not resume with the token", last)
	}
	if got := strings.Join(lines[1:len(lines)-1], "\n"); got != text {
		t.Errorf("wrapped text changed:\n%s", got)
	}
	if strings.Contains(strings.ToLower(text), m[1]) {
		t.Error("the token occurs in the text")
	}

	var again bytes.Buffer
	_ = Block(&again, true, []byte(text))
	if strings.SplitN(again.String(), "\n", 2)[0] == lines[0] {
		t.Error("two blocks used the same token")
	}

	var plain bytes.Buffer
	_ = Block(&plain, false, []byte(text))
	if plain.String() != text {
		t.Errorf("outside Actions the text must be written as it is, got %q", plain.String())
	}
	var empty bytes.Buffer
	if _ = Block(&empty, true, nil); empty.Len() != 0 {
		t.Errorf("an empty block wrote %q", empty.String())
	}
}

// TestForeignReadsAsTheRunner checks the test helper itself: what it
// accepts as ours, and that an unknown token cannot resume our block.
func TestForeignReadsAsTheRunner(t *testing.T) {
	tok := strings.Repeat("ab", 16)
	for out, want := range map[string]int{
		"::warning title=agc-action::x%0A::error::y\n":                                              0,
		"::error file=a,line=1::INJ\n":                                                              1,
		"  ::add-mask::x\nplain\nR2 ##[stop-commands]INJ\n":                                         2,
		"::stop-commands::" + tok + "\n::error::in\n::" + tok + "::\n":                              0,
		"::stop-commands::" + tok + "\n::TOK::\n::" + strings.ToUpper(tok) + "::\n::error::after\n": 1,
		"::stop-commands::" + tok + "\n##[" + tok + "]\n::error::after\n":                           1,
		"::stop-commands::" + tok + "\nnever resumed\n":                                             1,
		"a\r::error::cr\n":             1,
		"::unknown::name ##[error]x\n": 1,
	} {
		if got := logsafetest.Foreign(out); len(got) != want {
			t.Errorf("Foreign(%q) = %q, want %d", out, got, want)
		}
	}
}

func TestInActions(t *testing.T) {
	env := map[string]string{"GITHUB_ACTIONS": "true"}
	if !InActions(func(k string) string { return env[k] }) || InActions(func(string) string { return "" }) || InActions(nil) {
		t.Error("InActions must be true exactly when GITHUB_ACTIONS=true")
	}
}

func FuzzLine(f *testing.F) {
	for _, a := range attacks {
		f.Add(a)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, got := range []string{Line(s), Quote(s), Name(s)} {
			if strings.ContainsAny(got, "\n\r\u2028\u2029") || strings.Contains(got, "##[") || len(logsafetest.Foreign(got)) > 0 {
				t.Fatalf("%q escaped to %q", s, got)
			}
		}
		if back, err := strconv.Unquote(Quote(s)); err != nil || back != s {
			t.Fatalf("Quote(%q) does not unquote to itself: %q, %v", s, back, err)
		}
		if n := Name(s); n != s {
			if back, err := strconv.Unquote(n); err != nil || back != s {
				t.Fatalf("Name(%q) = %q does not unquote to itself", s, n)
			}
		}
	})
}

func FuzzJSON(f *testing.F) {
	for _, s := range []string{`{"a":"##["}`, "[1,\n2]\n", `"x\n::error::y"`, "{\"a\":\"b\"}\n{\"c\":\"##[d\"}\n", "\n::error::x", `{"a":"\##["}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, ok := JSON(b)
		if !ok {
			if !bytes.Equal(got, b) {
				t.Fatalf("invalid JSON %q was changed to %q", b, got)
			}
			return
		}
		if c := logsafetest.Foreign(string(got)); len(c) > 0 || bytes.Contains(got, []byte("##[")) {
			t.Fatalf("JSON(%q) = %q: the runner reads %q", b, got, c)
		}
		if !sameValues(b, got) {
			t.Fatalf("JSON(%q) = %q decodes to other values", b, got)
		}
	})
}

// sameValues: a and b are the same sequence of JSON values.
func sameValues(a, b []byte) bool {
	opts := []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}
	da, db := jsontext.NewDecoder(bytes.NewReader(a), opts...), jsontext.NewDecoder(bytes.NewReader(b), opts...)
	for {
		ta, ea := da.ReadToken()
		tb, eb := db.ReadToken()
		if ea != nil || eb != nil {
			return (ea == nil) == (eb == nil)
		}
		if ta.Kind() != tb.Kind() || ta.String() != tb.String() {
			return false
		}
	}
}
