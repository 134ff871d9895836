package render

import (
	"html"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEscape(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "plain words", "plain words"},
		{"script", "<script>alert(1)</script>", "&lt;script&gt;alert&#40;1&#41;&lt;/script&gt;"},
		{"marker comment", "<!-- agc:id=x hash=y -->", "&lt;&#33;-- agc&#58;id&#61;x hash&#61;y --&gt;"},
		{"mention", "ask @octocat", "ask @" + zwsp + "octocat"},
		{"team mention", "@org/team", "@" + zwsp + "org/team"},
		{"issue reference", "fixes #12", "fixes &#35;" + zwsp + "12"},
		{"hash without digit", "a.go#Open", "a&#46;go&#35;Open"},
		{"GH reference", "see gh-7", "see gh-" + zwsp + "7"},
		{"dash", "main-checkout", "main-checkout"},
		{"image", "![x](http://evil)", "&#33;&#91;x&#93;&#40;http&#58;" + zwsp + "//evil&#41;"},
		{"javascript link", "[x](javascript:alert(1))", "&#91;x&#93;&#40;javascript&#58;alert&#40;1&#41;&#41;"},
		{"www autolink", "www.evil.example", "www" + zwsp + "&#46;evil&#46;example"},
		{"email autolink", "me@evil.example", "me@" + zwsp + "evil&#46;example"},
		{"code span", "```x```", "&#96;&#96;&#96;x&#96;&#96;&#96;"},
		{"table", "| a | b |", "&#124; a &#124; b &#124;"},
		{"leading heading", "# title", "&#35; title"},
		{"emphasis", "*emph* _em_ ~~del~~", "&#42;emph&#42; &#95;em&#95; &#126;&#126;del&#126;&#126;"},
		{"backslash", `\*not\*`, "&#92;&#42;not&#92;&#42;"},
		{"math and emoji", "$x$ :smile:", "&#36;x&#36; &#58;smile&#58;"},
		{"entity stays literal", "&amp; &#64;", "&amp;amp; &amp;&#35;" + zwsp + "64;"},
		{"leading list", "- item", "&#45;&#32;item"},
		{"leading ordered list", "1. item", "1&#46; item"},
		{"leading indent", "    code", "&#32;&#32;&#32;&#32;code"},
		{"setext underline", "===", "&#61;&#61;&#61;"},
		{"newlines", "a\nb\r\nc", "a b c"},
		{"leading newline", "\n# x", "&#32;&#35; x"},
		{"terminal escape", "\x1b[31mred", "&#92;u001b&#91;31mred"},
		{"C1 CSI", "\u009b31m", "&#92;u009b31m"},
		{"bidi override", "a\u202eb", "a&#92;u202eb"},
		{"lone CR", "a\rb", "a&#92;u000db"},
		{"invalid UTF-8", "a\xffb", "a\uFFFDb"},
		{"quotes", `"x" 'y'`, "&quot;x&quot; &#39;y&#39;"},
		{"unicode kept", "naïve — ok", "naïve — ok"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Escape(tt.in)
			if got != tt.want {
				t.Errorf("Escape(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			checkInert(t, got)
		})
	}
}

// mentionRe finds "@" followed by what GitHub would read as a login.
var mentionRe = regexp.MustCompile(`@[A-Za-z0-9]`)

// shownRes match what GitHub turns into a mention, a reference or a link.
var shownRes = []*regexp.Regexp{
	mentionRe,
	regexp.MustCompile(`#[0-9]`),
	regexp.MustCompile(`(?i)gh-[0-9]`),
	regexp.MustCompile(`://`),
	regexp.MustCompile(`(?i)www\.`),
}

// checkInert fails if s, an output of Escape, could carry meaning in
// GitHub Markdown.
func checkInert(t testing.TB, s string) {
	t.Helper()
	for _, bad := range []string{"<", ">", "<!--", "`", "\n", "\r", "*", "_", "[", "]", "|", "\\", "\x1b"} {
		if strings.Contains(s, bad) {
			t.Errorf("Escape output %q holds %q", s, bad)
		}
	}
	if mentionRe.MatchString(s) {
		t.Errorf("Escape output %q holds a mention", s)
	}
	if strings.HasPrefix(s, " ") || strings.HasPrefix(s, "\t") || strings.HasPrefix(s, "-") {
		t.Errorf("Escape output %q starts with a blank or a dash", s)
	}
	// GitHub looks for mentions, references and links in the text as shown,
	// after entities are decoded.
	shown := html.UnescapeString(s)
	for _, re := range shownRes {
		if re.MatchString(shown) {
			t.Errorf("Escape output %q shows as %q, which matches %s", s, shown, re)
		}
	}
	if !utf8.ValidString(s) {
		t.Errorf("Escape output %q is not UTF-8", s)
	}
}

func TestFence(t *testing.T) {
	tests := []struct {
		name, content, want string
	}{
		{"none", "plain", "```"},
		{"short run", "a `b` c", "```"},
		{"triple", "```\ncode\n```", "````"},
		{"indented triple", "text\n   ```\nmore", "````"},
		{"deeply indented", "\t\t`````", "``````"},
		{"inline run", "x ```` y", "`````"},
		{"at the end", "x\n``````", "```````"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Fence(tt.content); got != tt.want {
				t.Errorf("Fence(%q) = %q, want %q", tt.content, got, tt.want)
			}
		})
	}
	if got := TildeFence("~~~\n  ~~~~ x"); got != "~~~~~" {
		t.Errorf("TildeFence = %q, want ~~~~~", got)
	}
}

func TestCodeSpan(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"a.go#Open", "`a.go#Open`"},
		{"a`b", "``a`b``"},
		{"`", "`` ` ``"},
		{"x ``` y", "````x ``` y````"},
		{" padded ", "`  padded  `"},
		{"two\nlines", "`two lines`"},
		{"@octocat", "`@octocat`"},
		{"<!-- agc:id=x -->", "<code>&lt;&#33;-- agc&#58;id&#61;x --&gt;</code>"},
		{"\x1b[2J", "`\\u001b[2J`"},
		{"", "(empty)"},
	}
	for _, tt := range tests {
		if got := codeSpan(tt.in); got != tt.want {
			t.Errorf("codeSpan(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCodeBlock(t *testing.T) {
	tests := []struct {
		name, lang, in, want string
	}{
		{"plain", "shell", "go vet ./...", "```shell\ngo vet ./...\n```\n"},
		{"fence inside", "", "a\n   ```\nb\n", "````\na\n   ```\nb\n````\n"},
		{"controls", "", "echo \x1b]0;t\x07", "```\necho \\u001b]0;t\\u0007\n```\n"},
		{"marker", "json", `{"a": "<!-- agc:id=x -->"}`, "<pre>\n{\"a\": \"&lt;!-- agc:id=x --&gt;\"}\n</pre>\n"},
		{"pre close", "", "<!--\n</pre>\n", "<pre>\n&lt;!--\n&lt;/pre&gt;\n</pre>\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := codeBlock(tt.lang, tt.in); got != tt.want {
				t.Errorf("codeBlock(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestClean(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"tab\tand\nnewline", "tab\tand\nnewline"},
		{"crlf\r\nline", "crlf\nline"},
		{"\x00\x07\x1b\x7f", `\u0000\u0007\u001b\u007f`},
		{"\u0085\u009b", `\u0085\u009b`},
		{"\u200e\u202a\u2066\u061c", `\u200e\u202a\u2066\u061c`},
		{"bad \xc3\x28 byte", "bad \uFFFD( byte"},
		{"é ✓", "é ✓"},
	}
	for _, tt := range tests {
		got := clean(tt.in)
		if got != tt.want {
			t.Errorf("clean(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if again := clean(got); again != got {
			t.Errorf("clean is not idempotent on %q: %q", got, again)
		}
	}
}

func FuzzMarkdownEscape(f *testing.F) {
	for _, s := range []string{
		"<script>", "<!-- agc:id=x hash=y -->", "@octocat", "#12", "![x](http://evil)",
		"[x](javascript:alert(1))", "```\n   ```", "| a | b |", "# h", "*emph*", `\`,
		"\x1b[31m", "\xff\xfe", "www.x", "gh-1", "&lt;", "\u202e", "\n-",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkInert(t, Escape(s))
		c := codeSpan(s)
		if strings.Contains(c, "<!--") || strings.ContainsAny(c, "\n\r\x1b") {
			t.Errorf("codeSpan(%q) = %q", s, c)
		}
		checkFenced(t, s)
	})
}

// checkFenced checks that no line of a code block's content closes its fence
// and that no "<!--" survives.
func checkFenced(t *testing.T, s string) {
	t.Helper()
	b := codeBlock("", s)
	if strings.Contains(b, "<!--") {
		t.Fatalf("codeBlock(%q) holds <!--: %q", s, b)
	}
	if strings.HasPrefix(b, "<pre>") {
		return
	}
	lines := strings.Split(strings.TrimSuffix(b, "\n"), "\n")
	fence := lines[0]
	for _, l := range lines[1 : len(lines)-1] {
		if strings.HasPrefix(strings.TrimLeft(l, " "), fence) {
			t.Fatalf("codeBlock(%q): line %q closes fence %q", s, l, fence)
		}
	}
}
