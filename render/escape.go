package render

import (
	"net/url"
	"strings"
	"unicode/utf8"
)

// zwsp is a zero-width space, written as the character itself (no entity:
// email notifications and the raw text show entities as they are). Put
// after "@", after the "#" of "#12" or the "-" of "GH-12", before the
// "//" of "http://" or the "." of "www." it stops GitHub from reading a
// mention, a reference or an autolink, which it looks for in the text as
// shown.
const zwsp = "\u200b"

// Escape makes untrusted text inert inline text in GitHub-flavoured
// Markdown, changing as little as it can, so the raw text (an email
// notification, the API) reads as written. It first cleans the text
// (invalid UTF-8, control and bidi characters), then:
//
//   - line breaks become spaces, so the result is one line and cannot
//     break out of a table cell, a list item or a heading;
//   - a backslash goes before every character that could start raw HTML
//     or a marker comment (<), a link or an image ([ ]), a code span (`),
//     emphasis or strike-through (* _ ~), math ($), an entity (&), a table
//     cell (|) or a backslash escape (\), before the "!" of "<!" (the raw
//     text never holds "<!--"), and before a first character that could
//     start a block (# > + - = and "1." or "1)"); leading blanks go;
//   - a zero-width space goes after "@" before a name character (no
//     mention, no e-mail autolink), after "#" or "GH-" before a digit (no
//     issue reference, "owner/repo#1" included), before the "//" of every
//     scheme but https (no http:, javascript: or data: autolink), before
//     the "//" of an https URL to an issue, a pull request or a discussion
//     on any host (crossLinks: no back-reference in that thread) and
//     inside "www." not after "https://" (no www autolink).
//
// Colons, full stops, quotes, parentheses and other https URLs are left as
// they are: GitHub shows an https URL as a link, which is harmless.
func Escape(s string) string {
	s = strings.TrimLeft(strings.ReplaceAll(clean(s), "\n", " "), " \t")
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	for i, r := range s {
		next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(r):])
		escapeRune(&b, s, i, r, next)
	}
	return b.String()
}

// alwaysEscaped are the characters Escape puts a backslash before.
const alwaysEscaped = "\\`*_[]<&|~$"

// escapeRune writes r, the rune at s[i:], escaped; next is the rune after.
func escapeRune(b *strings.Builder, s string, i int, r, next rune) {
	before := s[:i]
	lead := i == 0 // Escape has cut the leading blanks
	switch {
	case r < utf8.RuneSelf && strings.IndexByte(alwaysEscaped, byte(r)) >= 0,
		lead && startsBlock(r),
		r == '!' && strings.HasSuffix(before, "<"),   // never "<!--" in the raw text
		(r == '.' || r == ')') && digitsOnly(before): // "12." or "12)" would start a list
		b.WriteByte('\\')
	}
	b.WriteRune(r)
	switch {
	case r == '@' && nameChar(next):
		b.WriteString(zwsp)
	case r == '#' && isDigit(next):
		b.WriteString(zwsp)
	case r == '-' && isDigit(next) && hasSuffixFold(before, "gh"):
		b.WriteString(zwsp)
	case r == ':' && strings.HasPrefix(s[i+1:], "//") && (!hasSuffixFold(before, "https") || crossLinks(autolinkPath(s[i+3:]))):
		b.WriteString(zwsp)
	case (r == 'w' || r == 'W') && next == '.' && hasSuffixFold(before, "ww") && !strings.HasSuffix(before[:len(before)-2], "://"):
		b.WriteString(zwsp)
	}
}

// maxLinkScan bounds how much of an autolink autolinkPath reads: an
// issue's path (owner, repository, kind, number) is far shorter, and the
// bound keeps Escape linear on text made of "https://" repeated.
const maxLinkScan = 1024

// autolinkPath returns the path of the URL whose text follows "https://"
// in rest: after the host, up to what ends an autolink (a blank or "<"),
// a query or a fragment.
func autolinkPath(rest string) string {
	rest = rest[:min(len(rest), maxLinkScan)]
	if end := strings.IndexAny(rest, " \t<?#"); end >= 0 {
		rest = rest[:end]
	}
	if slash := strings.IndexAny(rest, "/\\"); slash >= 0 {
		return rest[slash:]
	}
	return ""
}

// crossLinks reports whether path, a URL's path, is that of an issue, a
// pull request or a discussion ("/OWNER/REPO/issues/1", "pull", "pulls",
// "discussions", anything after the number) on any host, GitHub
// Enterprise's included: a link there puts a back-reference in that
// thread's timeline, as "owner/repo#1" would. Percent-encoding, doubled
// slashes, backslashes and case do not hide one.
func crossLinks(path string) bool {
	if p, err := url.PathUnescape(path); err == nil {
		path = p
	}
	segs := strings.FieldsFunc(path[:min(len(path), maxLinkScan)], func(r rune) bool { return r == '/' || r == '\\' })
	if len(segs) < 4 || !isDigit(rune(segs[3][0])) {
		return false
	}
	switch strings.ToLower(segs[2]) {
	case "issues", "pull", "pulls", "discussions":
		return true
	}
	return false
}

// startsBlock reports whether r, the first visible character of a line,
// could start a block: a heading, a block quote, a list
// item, a setext underline or a thematic break.
func startsBlock(r rune) bool {
	switch r {
	case '#', '>', '+', '-', '=':
		return true
	}
	return false
}

func digitsOnly(s string) bool {
	if s == "" || len(s) > 9 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(rune(s[i])) {
			return false
		}
	}
	return true
}

// nameChar reports whether r can follow "@" in a mention or an e-mail
// address's domain.
func nameChar(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || isDigit(r) || r == '-' || r == '_' || r == '.'
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

// HTTPSURL returns u as it may be a link's destination: an absolute https
// URL with a host, no credentials, no space, no control character and
// nothing Markdown would read as the end of a destination, and not to an
// issue, a pull request or a discussion (crossLinks); ok is false for
// anything else (http:, javascript:, data:, relative), which must stay text.
func HTTPSURL(u string) (host string, ok bool) {
	if u == "" || len(u) > 2048 || strings.ContainsAny(u, " \t\n\r<>()\"'`\\|") || clean(u) != u {
		return "", false
	}
	p, err := url.Parse(u)
	if err != nil || p.Scheme != "https" || p.Host == "" || p.User != nil || p.Opaque != "" || crossLinks(p.EscapedPath()) {
		return "", false
	}
	return p.Hostname(), true
}

// Link is a Markdown link to u showing text (already Markdown) and, when
// text is not the host itself, the host in parentheses after it, so a
// reader sees where it goes. A u that is not an https URL (HTTPSURL) is
// shown as escaped text after text instead: never a link.
func Link(text, u string) string {
	host, ok := HTTPSURL(u)
	if !ok {
		if u == "" {
			return text
		}
		return text + " (" + Escape(u) + ")"
	}
	return "[" + text + "](" + u + ") (" + Escape(host) + ")"
}

// TrustedLink is a Markdown link to u, a URL agc-action made itself (a
// line of a file at a commit), showing text (already Markdown).
func TrustedLink(text, u string) string {
	if u == "" {
		return text
	}
	return "[" + text + "](" + urlEscaper.Replace(u) + ")"
}

// urlEscaper and htmlEscaper are built once: a table of thousands of
// links would build one a link.
var (
	urlEscaper  = strings.NewReplacer("(", "%28", ")", "%29", " ", "%20", "<", "%3C", ">", "%3E")
	htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
)

// escapeLines escapes each line of s and joins them with <br>, for prose
// fields whose line breaks should show without breaking the structure.
func escapeLines(s string) string {
	ls := splitLines(s)
	for i, l := range ls {
		ls[i] = Escape(l)
	}
	return strings.Join(ls, "<br>")
}

// Fence returns a backtick fence for a fenced code block holding content: at
// least three backticks and more than the longest run of backticks anywhere
// in content, so no line of content (indented or not) can close it.
func Fence(content string) string {
	return strings.Repeat("`", max(3, longestRun(content, '`')+1))
}

func longestRun(s string, c byte) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] != c {
			run = 0
			continue
		}
		run++
		best = max(best, run)
	}
	return best
}

// codeBlock returns content as a fenced code block with info as its info
// string, followed by a newline. Content that holds "<!--" is written as an
// HTML <pre> block with its text escaped instead, so the raw Markdown never
// carries a comment marker that content wrote.
func codeBlock(info, content string) string {
	c := clean(content)
	if !strings.HasSuffix(c, "\n") {
		c += "\n"
	}
	if strings.Contains(c, "<!--") {
		return "<pre>\n" + htmlEscape(c) + "</pre>\n"
	}
	f := Fence(c)
	return f + info + "\n" + c + f + "\n"
}

// CodeSpan returns s as an inline code span whose backtick run is longer than
// any in s, padded with a space at each end when s starts or ends with a
// backtick or a space. Line breaks become spaces, as CommonMark
// would show them; "<!--" falls back to an escaped <code> element, and
// an empty s is "(empty)".
func CodeSpan(s string) string {
	c := strings.ReplaceAll(clean(s), "\n", " ")
	switch {
	case c == "":
		return "(empty)"
	case strings.Contains(c, "<!--"):
		return "<code>" + Escape(c) + "</code>"
	}
	f := strings.Repeat("`", longestRun(c, '`')+1)
	if strings.HasPrefix(c, "`") || strings.HasSuffix(c, "`") || strings.HasPrefix(c, " ") || strings.HasSuffix(c, " ") {
		c = " " + c + " " // CommonMark strips one space from each end
	}
	return f + c + f
}

// htmlEscape escapes text for the inside of an HTML element.
func htmlEscape(s string) string {
	return htmlEscaper.Replace(s)
}
