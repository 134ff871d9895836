package render

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// zwsp is a zero-width space as an entity. Put after "@" or before the
// digits of "#12" it stops GitHub from reading a mention or a reference,
// which it looks for in the rendered text, after entities are decoded.
const zwsp = "&#8203;"

// Escape makes untrusted text inert inline text in GitHub-flavoured Markdown.
// It first cleans the text (invalid UTF-8, control and bidi characters), then:
//
//   - & < > " ' become entities, so no HTML and no "<!--" can appear;
//   - every ASCII punctuation character Markdown or GitHub gives a meaning to
//     (\ ` * _ [ ] ( ) ! | ~ # : $ { } ^ + . =) becomes a numeric entity,
//     which CommonMark always treats as literal text: no emphasis, links,
//     images, code spans, table cells, headings, math or emoji;
//   - "@" is followed by a zero-width space (no mention), as is "#" or "GH-"
//     before a digit (no issue reference), ":" before "/" and "www" before
//     "." (no autolink);
//   - line breaks become spaces, so the result is one line, and leading
//     blanks and a leading "-" become entities, so it cannot start a list, an
//     indented code block or a setext heading at the start of a line.
func Escape(s string) string {
	s = clean(s)
	var b strings.Builder
	b.Grow(len(s) + len(s)/4)
	lead := true // no visible character written yet
	for i, r := range s {
		// s is valid UTF-8 after clean, so RuneLen is r's width in s.
		next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(r):])
		if lead {
			if w, ok := leading(r); ok {
				b.WriteString(w)
				continue
			}
			lead = false
		}
		escapeRune(&b, r, next, s[:i])
	}
	return b.String()
}

// leading returns the entity for a character that means something only at
// the start of a line.
func leading(r rune) (string, bool) {
	switch r {
	case ' ', '\n':
		return "&#32;", true
	case '\t':
		return "&#9;", true
	case '-':
		return "&#45;", true
	}
	return "", false
}

// escapeRune writes r escaped, given the rune after it and the text before.
func escapeRune(b *strings.Builder, r, next rune, before string) {
	switch r {
	case '&':
		b.WriteString("&amp;")
	case '<':
		b.WriteString("&lt;")
	case '>':
		b.WriteString("&gt;")
	case '"':
		b.WriteString("&quot;")
	case '\n':
		b.WriteByte(' ')
	case '@':
		b.WriteString("@" + zwsp)
	case '#':
		b.WriteString("&#35;")
		b.WriteString(zwspIf(isDigit(next)))
	case ':':
		b.WriteString("&#58;")
		b.WriteString(zwspIf(next == '/'))
	case '-':
		b.WriteByte('-')
		b.WriteString(zwspIf(isDigit(next) && hasSuffixFold(before, "gh")))
	case '.':
		b.WriteString(zwspIf(hasSuffixFold(before, "www")))
		b.WriteString("&#46;")
	case '\'', '\\', '`', '*', '_', '[', ']', '(', ')', '!', '|', '~', '$', '{', '}', '^', '+', '=':
		b.WriteString("&#")
		b.WriteString(strconv.Itoa(int(r)))
		b.WriteByte(';')
	default:
		b.WriteRune(r)
	}
}

func zwspIf(b bool) string {
	if b {
		return zwsp
	}
	return ""
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

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

// TildeFence is Fence made of tildes, for a block whose content is better
// left with its backticks unbalanced by a backtick fence.
func TildeFence(content string) string {
	return strings.Repeat("~", max(3, longestRun(content, '~')+1))
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

// codeSpan returns s as an inline code span whose backtick run is longer than
// any in s, padded with a space at each end when s starts or ends with a
// backtick or a space. Line breaks become spaces, as CommonMark
// would show them; "<!--" falls back to an escaped <code> element.
func codeSpan(s string) string {
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
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
