package render

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/internal/testkit"
)

// §12: what, why, the remedy and the check, in that order, each once.
var (
	textOrder = []string{"id:", "class:", "location:", "severity:", "status:", "what:", "why:", "remedy:", "check:"}
	mdOrder   = []string{"- **Id:**", "- **Class:**", "- **Location:**", "- **Severity:**", "- **Status:**",
		"**What:**", "**Why:**", "**Remedy:**", "**Check:**"}
)

// checkOrder checks that the lines starting with the labels appear once
// each, in order. Content cannot forge a label: in text its lines are
// indented, in Markdown its asterisks are escaped.
func checkOrder(t testing.TB, where, s string, labels []string) {
	t.Helper()
	var seen []string
	for _, l := range strings.Split(s, "\n") {
		for _, lab := range labels {
			if strings.HasPrefix(l, lab) {
				seen = append(seen, lab)
			}
		}
	}
	if strings.Join(seen, " ") != strings.Join(labels, " ") {
		t.Errorf("%s: labels in order %q, want %q\n%s", where, seen, labels, s)
	}
}

func TestSection12Order(t *testing.T) {
	for _, file := range inputs(t) {
		r := testkit.Response(t, file)
		for i := range r.Findings {
			where := fmt.Sprintf("%s finding %d", file, i+1)
			checkOrder(t, where+" text", FindingText(&r.Findings[i]), textOrder)
			checkOrder(t, where+" markdown", FindingMarkdown(&r.Findings[i]), mdOrder)
		}
		var txt, md bytes.Buffer
		if err := Text(&txt, r); err != nil {
			t.Fatal(err)
		}
		if err := Markdown(&md, r); err != nil {
			t.Fatal(err)
		}
		checkChunks(t, file+" text", txt.String(), regexp.MustCompile(`(?m)^finding \d+ of \d+\n`), len(r.Findings),
			func(c string) string { return dedent(c, "  ") }, textOrder)
		checkChunks(t, file+" markdown", md.String(), regexp.MustCompile(`(?m)^#### Finding \d+ of \d+\n`), len(r.Findings),
			func(c string) string { return c }, mdOrder)
	}
}

// checkChunks splits a whole rendering at each finding's heading and checks
// the order in every finding, and that no finding is lost or added.
func checkChunks(t *testing.T, where, s string, heading *regexp.Regexp, n int, prep func(string) string, labels []string) {
	t.Helper()
	chunks := heading.Split(s, -1)[1:]
	if len(chunks) != n {
		t.Fatalf("%s: %d findings rendered, response has %d", where, len(chunks), n)
	}
	for i, c := range chunks {
		checkOrder(t, fmt.Sprintf("%s finding %d", where, i+1), prep(c), labels)
	}
}

func dedent(s, prefix string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, prefix)
	}
	return strings.Join(lines, "\n")
}

func TestFindingTextLayout(t *testing.T) {
	// Every line at column 0 of a finding is one of the renderer's labels;
	// content only ever continues, indented.
	for _, file := range inputs(t) {
		r := testkit.Response(t, file)
		for i := range r.Findings {
			for _, l := range strings.Split(strings.TrimSuffix(FindingText(&r.Findings[i]), "\n"), "\n") {
				if l != "" && l[0] != ' ' && !hasAnyPrefix(l, textOrder) {
					t.Errorf("%s finding %d: line %q is not a label", file, i+1, l)
				}
			}
		}
	}
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// checkRendersSafe renders r as text and as Markdown and checks both are
// safe where they are shown.
func checkRendersSafe(t *testing.T, r *agc.Response) {
	t.Helper()
	var txt, md bytes.Buffer
	if err := Text(&txt, r); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&md, r); err != nil {
		t.Fatal(err)
	}
	checkTerminalSafe(t, txt.String())
	checkMarkdown(t, md.String())
}

func TestSafety(t *testing.T) {
	for _, file := range inputs(t) {
		r := testkit.Response(t, file)
		checkRendersSafe(t, r)
	}
}

// checkTerminalSafe fails on anything a terminal would act on.
func checkTerminalSafe(t testing.TB, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Errorf("text output is not UTF-8")
	}
	for i, r := range s {
		if IsHidden(r) {
			t.Errorf("text output holds %U at byte %d", r, i)
		}
	}
}

// The renderer's own lines outside code blocks, and the tags it writes.
var (
	ownLine = regexp.MustCompile(`^(### AGC gate |#### Finding \d+ of \d+$|- \*\*[A-Z][a-z ]+:\*\* |` +
		`\*\*(What|Why|Remedy|Check):\*\* |(input|tool|edit|run|options):$|(role|authority|ask|condition): |\d+\. )`)
	ownTag = regexp.MustCompile(`<br>|<code>(?:[^<\\]|\\.)*</code>`)
	// escapedRe is a backslash escape: the character after it is text.
	escapedRe = regexp.MustCompile(`\\.`)
)

// checkMarkdown walks a rendering line by line. Outside code blocks every
// line must be the renderer's own; once code spans and the renderer's tags
// and backslash escapes are taken out, no "<", mention or raw marker may remain; <pre> blocks
// hold escaped text only; nothing anywhere holds "<!--".
func checkMarkdown(t testing.TB, md string) {
	t.Helper()
	if strings.Contains(md, "<!--") {
		t.Errorf("markdown holds <!--:\n%s", md)
	}
	var fence string
	inPre := false
	for n, l := range strings.Split(md, "\n") {
		switch {
		case fence != "":
			if l == fence {
				fence = ""
			}
		case inPre:
			if l == "</pre>" {
				inPre = false
			} else if strings.Contains(l, "<") {
				t.Errorf("line %d: unescaped < in <pre>: %q", n+1, l)
			}
		case l == "<pre>":
			inPre = true
		case strings.HasPrefix(l, "```"):
			fence = strings.TrimRight(l, "abcdefghijklmnopqrstuvwxyz")
		case l == "":
		case !ownLine.MatchString(l):
			t.Errorf("line %d is not the renderer's: %q", n+1, l)
		default:
			rest := escapedRe.ReplaceAllString(ownTag.ReplaceAllString(stripCodeSpans(l), ""), "")
			if strings.Contains(rest, "<") || mentionRe.MatchString(rest) {
				t.Errorf("line %d holds markup or a mention outside code: %q", n+1, l)
			}
		}
	}
	if fence != "" || inPre {
		t.Errorf("markdown ends inside a code block:\n%s", md)
	}
}

// stripCodeSpans removes the code spans of a line, as CommonMark finds
// them: a run of n backticks up to the next run of exactly n.
func stripCodeSpans(l string) string {
	var b strings.Builder
	for i := 0; i < len(l); {
		if l[i] != '`' {
			b.WriteByte(l[i])
			i++
			continue
		}
		n := runAt(l, i)
		end := closing(l, i+n, n)
		if end < 0 {
			b.WriteString(l[i : i+n])
			i += n
			continue
		}
		i = end + n
	}
	return b.String()
}

func runAt(s string, i int) int {
	n := 0
	for i+n < len(s) && s[i+n] == '`' {
		n++
	}
	return n
}

func closing(s string, from, n int) int {
	for j := from; j < len(s); {
		if s[j] != '`' {
			j++
			continue
		}
		m := runAt(s, j)
		if m == n {
			return j
		}
		j += m
	}
	return -1
}

func FuzzRender(f *testing.F) {
	for _, file := range inputs(f) {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := agc.Decode("fuzz", data, agc.Limits{})
		if err != nil {
			return
		}
		checkRendersSafe(t, r)
		for i := range r.Findings {
			checkOrder(t, "text", FindingText(&r.Findings[i]), textOrder)
			checkOrder(t, "markdown", FindingMarkdown(&r.Findings[i]), mdOrder)
		}
	})
}
