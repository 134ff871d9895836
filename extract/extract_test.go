package extract

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/diag"
	"github.com/google/go-cmp/cmp"
)

// result is what Find returned, flattened for comparison.
type result struct {
	Content   string
	Start     int
	End       int
	LintLines []int
	Kind      string
	ErrLines  []int
}

func find(t *testing.T, in string) result {
	t.Helper()
	b, lints, err := Find("msg.md", []byte(in))
	var r result
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("Find error %T %v, want *Error", err, err)
		}
		if b.StartLine != 0 || b.Content != nil || lints != nil {
			t.Errorf("Find returned a block %+v or lints %v with error %v", b, lints, err)
		}
		return result{Kind: e.Kind, ErrLines: e.Lines}
	}
	r = result{Content: string(b.Content), Start: b.StartLine, End: b.EndLine}
	for _, l := range lints {
		r.LintLines = append(r.LintLines, l.Line)
	}
	return r
}

func ok(content string, start, end int, lints ...int) result {
	return result{Content: content, Start: start, End: end, LintLines: lints}
}

func fail(kind string, lines ...int) result { return result{Kind: kind, ErrLines: lines} }

var findCases = []struct {
	name string
	in   string
	want result
}{
	{"backtick", "Verdict below.\n\n```agc\n{}\n```\n", ok("{}\n", 3, 5)},
	{"tilde with space", "~~~ agc\n{}\n~~~\n", ok("{}\n", 1, 3)},
	{"info attributes", "````agc {.x}\n{}\n````\n", ok("{}\n", 1, 3)},
	{"info tab then word", "```agc\tx\n{}\n```\n", ok("{}\n", 1, 3)},
	{"trailing spaces in info", "```agc   \n{}\n```\n", ok("{}\n", 1, 3)},
	{"numeric reference in info", "```&#97;gc\n{}\n```\n", ok("{}\n", 1, 3)},
	{"backslash before a letter stays", "```a\\gc\n{}\n```\n", fail(KindNone, 3)},
	{"agcx is not agc", "```agcx\n{}\n```\n", fail(KindNone, 3)},
	{"AGC is not agc", "```AGC\n{}\n```\n", fail(KindNone, 3)},
	{"json is not agc", "```json\n{}\n```\n", fail(KindNone, 3)},
	{"long fence holds a shorter run", "`````agc\n```\n{}\n````\n`````\n", ok("```\n{}\n````\n", 1, 5)},
	{"four backticks hold three", "````agc\n```\n````\n", ok("```\n", 1, 3)},
	{"closing fence may be longer", "```agc\n{}\n``````\n", ok("{}\n", 1, 3)},
	{"closing fence with trailing spaces", "```agc\n{}\n```  \t\n", ok("{}\n", 1, 3)},
	{"shorter closing fence is content", "````agc\n{}\n```\n", fail(KindUnterminated, 1)},
	{"closing fence with text is content", "```agc\n{}\n``` x\n", fail(KindUnterminated, 1)},
	{"tilde block not closed by backticks", "~~~agc\n{}\n```\n~~~\n", ok("{}\n```\n", 1, 4)},
	{"backtick block not closed by tildes", "```agc\n~~~\n```\n", ok("~~~\n", 1, 3)},
	{"agc fence inside a go block", "```go\n```agc\n{}\n```\n", fail(KindNone, 2)},
	{"agc fence inside a block, then the real one", "````md\n```agc\n{}\n```\n````\n\n```agc\n{\"a\":1}\n```\n", ok("{\"a\":1}\n", 7, 9)},
	{"go block, then agc", "```go\nx := 1\n```\n```agc\n{}\n```\n", ok("{}\n", 4, 6)},
	{"unclosed go block swallows agc", "```go\nx\n\n```agc\n{}\n", fail(KindNone, 4)},
	{"indented 1 to 3 spaces", "   ```agc\n   {\n  \"a\": 1\n     }\n   ```\n", ok("{\n\"a\": 1\n  }\n", 1, 5)},
	{"content keeps what is beyond the indent", "  ```agc\n      x\n```\n", ok("    x\n", 1, 3)},
	{"partly consumed tab becomes spaces", "  ```agc\n\tx\n  ```\n", ok("  x\n", 1, 3)},
	{"indented 4 spaces is indented code", "    ```agc\n    {}\n    ```\n", fail(KindNone, 1)},
	{"tab indent is indented code", "\t```agc\n\t{}\n\t```\n", fail(KindNone, 1)},
	{"4-space line in a paragraph", "Text\n    ```agc\n", fail(KindNone, 2)},
	{"indented closing fence 4 spaces is content", "```agc\n{}\n    ```\n```\n", ok("{}\n    ```\n", 1, 4)},
	{"backtick in backtick info is not a fence", "```agc `x`\n{}\n```\n", fail(KindNone, 1)},
	{"backtick in tilde info is fine", "~~~agc `x`\n{}\n~~~\n", ok("{}\n", 1, 3)},
	{"two backticks are not a fence", "``agc\n{}\n``\n", fail(KindNone, 3)},
	{"CRLF", "Done.\r\n\r\n```agc\r\n{\r\n}\r\n```\r\n", ok("{\n}\n", 3, 6)},
	{"lone CR", "```agc\r{}\r```\r", ok("{}\n", 1, 3)},
	{"no final newline", "```agc\n{}\n```", ok("{}\n", 1, 3)},
	{"two blocks", "```agc\n{}\n```\ntext\n~~~agc\n{}\n~~~\n", fail(KindSeveral, 1, 5)},
	{"two blocks, second unterminated", "```agc\n{}\n```\n```agc\n", fail(KindSeveral, 1, 4)},
	{"none", "All good, no block.\nBye\n", fail(KindNone, 2)},
	{"empty message", "", fail(KindNone, 1)},
	{"unterminated", "Review:\n```agc\n{}\n", fail(KindUnterminated, 2)},
	{"unterminated at once", "```agc", fail(KindUnterminated, 1)},
	{"prose after", "```agc\n{}\n```\n\nThanks!\n", ok("{}\n", 1, 3, 5)},
	{"blank lines after are fine", "```agc\n{}\n```\n\n  \t\n", ok("{}\n", 1, 3)},
	{"empty block", "```agc\n```\n", ok("", 1, 2, 1)},
	{"block quote", "> Verdict:\n>\n> ```agc\n> {\n>   \"a\": 1\n> }\n> ```\n", ok("{\n  \"a\": 1\n}\n", 3, 7, 3)},
	{"block quote without space", ">```agc\n>{}\n>```\n", ok("{}\n", 1, 3, 1)},
	{"nested block quote", "> > ```agc\n> > {}\n> > ```\n", ok("{}\n", 1, 3, 1)},
	{"block quote ends before the fence closes", "> ```agc\n> {}\n\n```\n", fail(KindUnterminated, 1)},
	{"quote marker inside a top-level block is content", "```agc\n> {}\n```\n", ok("> {}\n", 1, 3)},
	{"list item", "- finding 1\n\n  ```agc\n  {}\n  ```\n", ok("{}\n", 3, 5, 3)},
	{"fence on the list marker line", "1. ```agc\n   {}\n   ```\n", ok("{}\n", 1, 3, 1)},
	{"list item ends before the fence closes", "- ```agc\n  {}\n```\n", fail(KindUnterminated, 1)},
	{"deep list item", "- a\n  - b\n\n    ```agc\n    {}\n    ```\n", ok("{}\n", 4, 6, 4)},
	{"html block swallows the fence", "<details>\n```agc\n{}\n```\n</details>\n", fail(KindNone, 2)},
	{"html block ended by a blank line", "<details>\n\n```agc\n{}\n```\n\n</details>\n", ok("{}\n", 3, 5, 7)},
	{"html comment runs until -->", "<!--\n\n```agc\n{}\n```\n-->\n", fail(KindNone, 3)},
	{"span tag does not interrupt a paragraph", "Text\n<span>\n```agc\n{}\n```\n", ok("{}\n", 3, 5)},
	{"invalid UTF-8 kept", "```agc\n\xff\xfe{}\n```\n", ok("\xff\xfe{}\n", 1, 3)},
	{"invalid UTF-8 in info", "```agc\xff\n{}\n```\n", fail(KindNone, 3)},
	{"NUL kept", "```agc\n\x00\n```\n", ok("\x00\n", 1, 3)},
	{"setext heading then fence", "Title\n=====\n```agc\n{}\n```\n", ok("{}\n", 3, 5)},
	{"list item 10 after a heading", "Title\n===\n10. ```agc\n    {}\n    ```\n", ok("{}\n", 3, 5, 3)},
	{"list item 10 cannot interrupt a paragraph", "Title\n10. ```agc\n{}\n```\n", fail(KindNone, 4)},
	{"definitions alone are no heading", "[a]: /u\n===\n10. ```agc\n    {}\n    ```\n", fail(KindNone, 5)},
	{"definition with title is no heading", "[a]:\n/u 't'\n===\n10. ```agc\n    {}\n    ```\n", fail(KindNone, 6)},
	{"text after a definition makes a heading", "[a]: /u\nText\n===\n10. ```agc\n    {}\n    ```\n", ok("{}\n", 4, 6, 4)},
}

func TestFind(t *testing.T) {
	for _, tc := range findCases {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, find(t, tc.in)); diff != "" {
				t.Errorf("Find(%q) mismatch (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}

func TestErrorMessages(t *testing.T) {
	tests := []struct {
		in   string
		want []string // substrings of Error()
	}{
		{"```go\n```agc\n", []string{"msg.md:2: ", "no fenced code block", "content of the code block opened at line 1"}},
		{"<div>\n```agc\n", []string{"msg.md:2: ", "HTML block opened at line 1"}},
		{"    ```agc\n", []string{"msg.md:1: ", "indented 4 or more spaces"}},
		{"```agc `x`\n", []string{"msg.md:1: ", "may not contain backticks"}},
		{"x\ny\n", []string{"msg.md:2: ", "no fenced code block with info string \"agc\""}},
		{"```agc\n```\n```agc\n```\n", []string{"msg.md:1: ", "2 fenced agc blocks, opened at lines 1, 3"}},
		{strings.Repeat("```agc\n```\n", 12), []string{"12 fenced agc blocks", "1, 3, 5", "19 and 2 more"}},
		{"x\n```agc\n{}\n", []string{"msg.md:2: ", "not closed before the end of the message"}},
		{"> ```agc\n> {}\nx\n", []string{"msg.md:1: ", "block quote or list item ends after line 2"}},
	}
	for _, tc := range tests {
		_, _, err := Find("msg.md", []byte(tc.in))
		if err == nil {
			t.Errorf("Find(%q) = nil error, want one", tc.in)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("Find(%q) error %q does not contain %q", tc.in, err, w)
			}
		}
	}
}

func TestLintMessages(t *testing.T) {
	_, lints, err := Find("msg.md", []byte("> ```agc\n> ```\nThanks.\n"))
	if err != nil {
		t.Fatal(err)
	}
	at := func(line int) diag.Place { return diag.Place{File: "msg.md", Line: line} }
	want := []diag.Lint{
		{Place: at(1), Message: "the agc block is empty"},
		{Place: at(1), Message: "the agc block is inside a block quote or list item; put it at the top level of the message"},
		{Place: at(3), Message: "prose after the agc block at line 1; the block should end the message"},
	}
	if diff := cmp.Diff(want, lints); diff != "" {
		t.Errorf("lints mismatch (-want +got):\n%s", diff)
	}
}

func TestInfoLang(t *testing.T) {
	tests := map[string]string{
		"agc":           "agc",
		"agc {.x}":      "agc",
		"&#x61;gc x":    "agc",
		"agc&#32;x":     "agc",
		"&#0;":          "\uFFFD",
		"&#99999999;":   "&#99999999;",
		"\\{agc":        "{agc",
		"a&amp;b":       "a&b",
		"&#x61;&Tab;gc": "a",
		"\\&#97;gc":     "&#97;gc",
		"&#92;&#96;agc": "\\`agc",
		"&nosuch;agc":   "&nosuch;agc",
		"&#x110000;":    "\uFFFD",
		"&#;":           "&#;",
		"":              "",
		"\\a":           "\\a",
		"&#x;agc":       "&#x;agc",
		"&#97":          "&#97",
		"ag\\c":         "ag\\c",
		"\\`\\`\\` agc": "```",
	}
	for in, want := range tests {
		if got := infoLang(in); got != want {
			t.Errorf("infoLang(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLines(t *testing.T) {
	tests := map[string][]string{
		"":             nil,
		"a":            {"a"},
		"a\n":          {"a"},
		"a\n\n":        {"a", ""},
		"a\r\nb\rc\n":  {"a", "b", "c"},
		"\r\r\n\n":     {"", "", ""},
		"a\r":          {"a"},
		"x\ry\r\nz":    {"x", "y", "z"},
		"\n\r\n\r":     {"", "", ""},
		"\r\r\r\r\rx":  {"", "", "", "", "", "x"},
		"a\rb\rc\nd\r": {"a", "b", "c", "d"},
	}
	for in, want := range tests {
		if diff := cmp.Diff(want, slices.Collect(lines(in))); diff != "" {
			t.Errorf("lines(%q) mismatch (-want +got):\n%s", in, diff)
		}
	}
}

func TestDeepNesting(t *testing.T) {
	deep := strings.Repeat(">", 200) + " ```agc\n" + strings.Repeat(">", 200) + " {}\n" + strings.Repeat(">", 200) + " ```\n"
	// Past maxNesting levels the markers are text: the fence is inside a paragraph.
	if diff := cmp.Diff(fail(KindNone, 3), find(t, deep)); diff != "" {
		t.Errorf("200 quote levels (-want +got):\n%s", diff)
	}
	okMax := strings.Repeat("> ", maxNesting) + "```agc\n" + strings.Repeat("> ", maxNesting) + "{}\n" + strings.Repeat("> ", maxNesting) + "```\n"
	if diff := cmp.Diff(ok("{}\n", 1, 3, 1), find(t, okMax)); diff != "" {
		t.Errorf("%d quote levels (-want +got):\n%s", maxNesting, diff)
	}
	list := strings.Repeat("- ", maxNesting) + "```agc\n" + strings.Repeat(" ", 2*maxNesting) + "{}\n" + strings.Repeat(" ", 2*maxNesting) + "```\n"
	if diff := cmp.Diff(ok("{}\n", 1, 3, 1), find(t, list)); diff != "" {
		t.Errorf("%d list levels (-want +got):\n%s", maxNesting, diff)
	}
	over := strings.Repeat("- ", maxNesting+1) + "```agc\n" + strings.Repeat(" ", 2*maxNesting+2) + "{}\n" + strings.Repeat(" ", 2*maxNesting+2) + "```\n"
	if diff := cmp.Diff(fail(KindNone, 3), find(t, over)); diff != "" {
		t.Errorf("%d list levels (-want +got):\n%s", maxNesting+1, diff)
	}
}
