package render

import (
	stdhtml "html"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// TestEscape is a table of attacks (what GitHub would act on: raw HTML,
// mentions, references, our markers, links and autolinks of schemes other
// than https, Markdown that breaks out of its block) and harmless text,
// which must stay as it is: no entity, no escape it does not need.
func TestEscape(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		// Attacks.
		{"script", "<script>alert(1)</script>", `\<script>alert(1)\</script>`},
		{"img onerror", `<img src=x onerror="alert(1)">`, `\<img src=x onerror="alert(1)">`},
		{"details break-out", "</details><b>x</b>", `\</details>\<b>x\</b>`},
		{"marker comment", "<!-- agc:id=x hash=y -->", `\<\!-- agc:id=x hash=y -->`},
		{"mention", "ask @octocat", "ask @" + zwsp + "octocat"},
		{"team mention", "@org/team", "@" + zwsp + "org/team"},
		{"issue reference", "fixes #12", "fixes #" + zwsp + "12"},
		{"cross-repository reference", "see owner/repo#1", "see owner/repo#" + zwsp + "1"},
		{"GH reference", "see GH-7", "see GH-" + zwsp + "7"},
		{"commit mention", "owner/repo@abc1234", "owner/repo@" + zwsp + "abc1234"},
		{"image", "![x](http://evil)", `!\[x\](http:` + zwsp + `//evil)`},
		{"javascript link", "[x](javascript:alert(1))", `\[x\](javascript:alert(1))`},
		{"data link", "[x](data:text/html;base64,PHNjcmlwdD4=)", `\[x\](data:text/html;base64,PHNjcmlwdD4=)`},
		{"angle autolink", "<javascript:alert(1)>", `\<javascript:alert(1)>`},
		{"http autolink", "http://evil.example/x", "http:" + zwsp + "//evil.example/x"},
		{"javascript autolink", "javascript://%0aalert(1)", "javascript:" + zwsp + "//%0aalert(1)"},
		{"www autolink", "www.evil.example", "www" + zwsp + ".evil.example"},
		{"email autolink", "me@evil.example", "me@" + zwsp + "evil.example"},
		{"reference link", "[x][1]\n\n[1]: http://evil", `\[x\]\[1\]  \[1\]: http:` + zwsp + `//evil`},
		{"code fence", "```\n</details>", "\\`\\`\\` \\</details>"},
		{"code span", "`x`", "\\`x\\`"},
		{"table pipes", "| a | b |", `\| a \| b \|`},
		{"leading heading", "# title", `\# title`},
		{"leading quote", "> quoted", `\> quoted`},
		{"leading list", "- item", `\- item`},
		{"leading plus", "+ item", `\+ item`},
		{"leading ordered list", "1. item", `1\. item`},
		{"leading ordered paren", "12) item", `12\) item`},
		{"leading indent", "    code", "code"},
		{"setext underline", "===", `\===`},
		{"emphasis", "*emph* _em_ ~~del~~", `\*emph\* \_em\_ \~\~del\~\~`},
		{"math", "$\\Huge x$", `\$\\Huge x\$`},
		{"entity", "&lt;b&gt; &#64;x", `\&lt;b\&gt; \&#` + zwsp + `64;x`},
		{"backslash", `\*not\*`, `\\\*not\\\*`},
		{"newlines", "a\nb\r\nc", "a b c"},
		{"newline then heading", "ok\n# x", "ok # x"},
		{"terminal escape", "\x1b[31mred", `\\u001b\[31mred`},
		{"bidi override", "a\u202eb", `a\\u202eb`},
		{"invalid UTF-8", "a\xffb", "a\uFFFDb"},
		{"URL in parentheses", "(https://github.com/o/r/issues/6#issuecomment-7)", "(https:" + zwsp + "//github.com/o/r/issues/6#issuecomment-7)"},
		// Harmless text stays as written.
		{"plain", "plain words", "plain words"},
		{"punctuation", "Expected '===' and instead saw '=='.", "Expected '===' and instead saw '=='."},
		{"colons and stops", "F01: problem found here.", "F01: problem found here."},
		{"https URL", "see https://eslint.org/docs/latest/rules/semi.", "see https://eslint.org/docs/latest/rules/semi."},
		{"https www URL", "https://www.example.com/x", "https://www.example.com/x"},
		{"repository URL", "https://github.com/o/r", "https://github.com/o/r"},
		{"issues list URL", "https://github.com/o/r/issues", "https://github.com/o/r/issues"},
		{"file URL", "https://github.com/o/r/blob/main/docs/issues/1.md", "https://github.com/o/r/blob/main/docs/issues/1.md"},
		{"docs issues path", "https://docs.example.com/issues/1", "https://docs.example.com/issues/1"},
		{"two URLs", "https://eslint.org/x https://github.com/o/r/issues/1", "https://eslint.org/x https:" + zwsp + "//github.com/o/r/issues/1"},
		{"quotes and parens", `"x" ('y') {z} a=b; c+d!`, `"x" ('y') {z} a=b; c+d!`},
		{"hash without digit", "a.go#Open", "a.go#Open"},
		{"dash", "main-checkout", "main-checkout"},
		{"mid-line dash and number", "use 1. then 2.", "use 1. then 2."},
		{"emoji shortcode", ":smile:", ":smile:"},
		{"unicode kept", "naïve — ok", "naïve — ok"},
		{"empty", "", ""},
	}
	for _, u := range threadURLs {
		tests = append(tests, struct{ name, in, want string }{u.name + " URL", "see " + u.u + ".", "see " + brokenURL(u.u) + "."})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Escape(tt.in)
			if got != tt.want {
				t.Errorf("Escape(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			checkInert(t, tt.in, got)
		})
	}
}

// TestEscapeNoEntities pins the promise made to email readers: Escape
// writes no HTML entity at all.
func TestEscapeNoEntities(t *testing.T) {
	in := `F01: problem found here. <b> & "q" 'a' (x) [y] #1 @u ~ | $ * _ = + - ! ? , ; / %`
	if got := Escape(in); entityRe.MatchString(got) {
		t.Errorf("Escape(%q) = %q holds an entity", in, got)
	}
}

var entityRe = regexp.MustCompile(`&(#[0-9]+|#x[0-9a-fA-F]+|[a-zA-Z]+);`)

// mentionRe finds "@" followed by what GitHub would read as a login.
var mentionRe = regexp.MustCompile(`@[A-Za-z0-9]`)

// shownRes match what GitHub turns into a mention or a reference in the
// text as shown.
var shownRes = []*regexp.Regexp{
	mentionRe,
	regexp.MustCompile(`#[0-9]`),
	regexp.MustCompile(`(?i)gh-[0-9]`),
}

// gfm renders GitHub-flavoured Markdown as goldmark does with its GFM
// extensions (tables, strike-through, autolinks, task lists).
var gfm = goldmark.New(goldmark.WithExtensions(extension.GFM))

// checkInert fails if out, Escape's output for in, could carry meaning in
// GitHub Markdown: rendered inside a paragraph and a table cell it must be
// one paragraph (one cell) of text with no element, no link but to an
// https URL in, no mention and no reference, and the raw text must hold no
// line break and no "<!--".
func checkInert(t testing.TB, in, out string) {
	t.Helper()
	if strings.ContainsAny(out, "\n\r\x1b") || strings.Contains(out, "<!--") {
		t.Errorf("Escape(%q) = %q holds a line break, ESC or <!--", in, out)
	}
	if !utf8.ValidString(out) {
		t.Errorf("Escape output %q is not UTF-8", out)
	}
	var h strings.Builder
	if err := gfm.Convert([]byte("x "+out), &h); err != nil {
		t.Fatal(err)
	}
	html := h.String()
	body := strings.TrimSuffix(strings.TrimPrefix(html, "<p>"), "</p>\n")
	for _, tag := range tagRe.FindAllString(body, -1) {
		if !strings.HasPrefix(tag, `<a href="https://`) && tag != "</a>" {
			t.Errorf("Escape(%q) = %q renders the element %s: %s", in, out, tag, html)
		}
		if crossLinkRe.MatchString(stdhtml.UnescapeString(tag)) {
			t.Errorf("Escape(%q) = %q renders a link to an issue, pull request or discussion: %s", in, out, html)
		}
	}
	if strings.Count(html, "<p>") != 1 {
		t.Errorf("Escape(%q) = %q renders as more than one paragraph: %s", in, out, html)
	}
	shown := stdhtml.UnescapeString(tagRe.ReplaceAllString(body, ""))
	for _, re := range shownRes {
		if re.MatchString(shown) {
			t.Errorf("Escape(%q) shows as %q, which matches %s", in, shown, re)
		}
	}
	var cell strings.Builder
	if err := gfm.Convert([]byte("| a | b |\n|---|---|\n| "+out+" | z |\n"), &cell); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(cell.String(), "<td"); n != 2 {
		t.Errorf("Escape(%q) = %q in a table row makes %d cells: %s", in, out, n, cell.String())
	}
}

var tagRe = regexp.MustCompile(`<[^>]*>`)

// crossLinkRe matches a link GitHub would turn into a back-reference in
// another issue's timeline: one to an issue, a pull request or a
// discussion, on any host.
var crossLinkRe = regexp.MustCompile(`(?i)<a href="https://[^/"]+/+[^/"]+/+[^/"]+/+(issues|pulls?|discussions)/+[0-9]`)

// threadURLs point to an issue, a pull request or a discussion: a link to
// one cross-links that thread, so neither Escape nor Link may leave one.
var threadURLs = []struct{ name, u string }{
	{"issue", "https://github.com/o/r/issues/1"},
	{"pull", "https://github.com/o/r/pull/2/files"},
	{"pulls", "https://github.com/o/r/pulls/3"},
	{"discussion", "https://github.com/o/r/discussions/4#discussioncomment-5"},
	{"issue comment", "https://github.com/o/r/issues/6#issuecomment-7"},
	{"enterprise issue", "https://ghe.example.com/o/r/issues/8"},
	{"www issue", "https://www.github.com/o/r/issues/9"},
	{"upper-case issue", "HTTPS://GitHub.com/o/r/Issues/10"},
	{"encoded issue", "https://github.com/o/r/%69ssues/11"},
	{"issue with query", "https://github.com/o/r/issues/12?x=1"},
	{"doubled slashes", "https://github.com/o//r/issues/13"},
}

// brokenURL is u as Escape and Link leave it: a zero-width space after the
// scheme's colon, so that GitHub makes no link of it.
func brokenURL(u string) string {
	i := strings.IndexByte(u, ':') + 1
	return u[:i] + zwsp + u[i:]
}

// TestLink checks help links: a clean https URL is a link showing its host;
// anything else, a URL to an issue, a pull request or a discussion
// included (a link there cross-links that thread), is text, never a link.
func TestLink(t *testing.T) {
	tests := []struct {
		name, u, want string
	}{
		{"docs page", "https://eslint.org/docs/latest/rules/semi", "[`semi`](https://eslint.org/docs/latest/rules/semi) (eslint.org)"},
		{"repository file", "https://github.com/o/r/blob/main/docs/rules/x.md", "[`semi`](https://github.com/o/r/blob/main/docs/rules/x.md) (github.com)"},
		{"none", "", "`semi`"},
		{"http", "http://evil.example/x", "`semi` (http:" + zwsp + "//evil.example/x)"},
		{"javascript", "javascript:alert(1)", "`semi` (javascript:alert(1))"},
	}
	for _, u := range threadURLs {
		tests = append(tests, struct{ name, u, want string }{u.name, u.u, "`semi` (" + brokenURL(u.u) + ")"})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Link("`semi`", tt.u)
			if got != tt.want {
				t.Errorf("Link(%q)\n got %q\nwant %q", tt.u, got, tt.want)
			}
			var h strings.Builder
			if err := gfm.Convert([]byte(got), &h); err != nil {
				t.Fatal(err)
			}
			if crossLinkRe.MatchString(h.String()) {
				t.Errorf("Link(%q) renders a link to an issue, pull request or discussion: %s", tt.u, h.String())
			}
		})
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
		{"<!-- agc:id=x -->", `<code>\<\!-- agc:id=x --></code>`},
		{"\x1b[2J", "`\\u001b[2J`"},
		{"", "(empty)"},
	}
	for _, tt := range tests {
		if got := CodeSpan(tt.in); got != tt.want {
			t.Errorf("CodeSpan(%q) = %q, want %q", tt.in, got, tt.want)
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
		checkInert(t, s, Escape(s))
		c := CodeSpan(s)
		if strings.Contains(c, "<!--") || strings.ContainsAny(c, "\n\r\x1b") {
			t.Errorf("CodeSpan(%q) = %q", s, c)
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
