package logsafe

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// commandLine reports whether the runner would take line as a command:
// `::name` at its start (after blanks), or `##[` anywhere in a line that
// does not start with `::`.
func commandLine(line string) bool {
	t := strings.TrimLeft(line, " \t")
	return strings.HasPrefix(t, "::") || strings.Contains(line, "##[")
}

func commands(out string) []string {
	var found []string
	for _, l := range strings.Split(out, "\n") {
		if commandLine(l) {
			found = append(found, l)
		}
	}
	return found
}

var attacks = []string{
	"src/x\n::error file=README.md,line=1::INJECTED\n::stop-commands::TOK\ny.go",
	"x\n::error file=a,line=1::INJ",
	"R2 ##[stop-commands]INJ",
	"a\r::warning::carriage return",
	"a\u2028::notice::line separator",
	"  ::add-mask::secret",
	"###[x] and ##[[y]",
	"tab\there, quote \" and backslash \\ stay",
}

func TestQuoteAndLineNeverPrintACommand(t *testing.T) {
	for _, a := range attacks {
		for name, f := range map[string]func(string) string{"Quote": Quote, "Line": Line} {
			got := "carry code-review: changed " + f(a)
			if c := commands(got); len(c) > 0 || strings.ContainsAny(got, "\n\r") {
				t.Errorf("%s(%q) = %q: the runner reads %q", name, a, got, c)
			}
		}
		// Quote stays a Go literal of the same string.
		if back, err := strconv.Unquote(Quote(a)); err != nil || back != a {
			t.Errorf("Unquote(Quote(%q)) = %q, %v", a, back, err)
		}
	}
}

func TestLineKeepsPlainText(t *testing.T) {
	for _, s := range []string{"", "src/app.go", `a "quoted" C:\path`, "naïve – ünïcode ✓", "tab\tkept?"} {
		want := s
		if strings.Contains(s, "\t") {
			want = strings.ReplaceAll(s, "\t", `\t`)
		}
		if got := Line(s); got != want {
			t.Errorf("Line(%q) = %q, want %q", s, got, want)
		}
	}
}

var tokenLine = regexp.MustCompile(`^::stop-commands::([0-9a-f]{32})$`)

func TestBlock(t *testing.T) {
	text := "finding: x\n::error file=a,line=1::INJ\nR2 ##[stop-commands]INJ" // no final newline
	var b bytes.Buffer
	if err := Block(&b, true, []byte(text)); err != nil {
		t.Fatal(err)
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
	if strings.Contains(text, m[1]) {
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
		for _, got := range []string{Line(s), Quote(s)} {
			if strings.ContainsAny(got, "\n\r\u2028\u2029") || strings.Contains(got, "##[") {
				t.Fatalf("%q escaped to %q", s, got)
			}
		}
		if back, err := strconv.Unquote(Quote(s)); err != nil || back != s {
			t.Fatalf("Quote(%q) does not unquote to itself: %q, %v", s, back, err)
		}
	})
}
