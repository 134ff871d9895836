package review

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A ```suggestion is applied with one click, as GitHub shows it, and
// GitHub shows invisible characters as nothing: a replacement holding a
// bidirectional override or isolate (Trojan Source, CVE-2021-42574), a
// zero-width character or a control character reads one way and compiles
// another. Such a change is never a suggestion; the comment shows it with
// each of those characters written out as <U+XXXX>.

// invisibleNames names the characters a reader is most likely to meet.
var invisibleNames = map[rune]string{
	0x00ad: "SOFT HYPHEN",
	0x061c: "ARABIC LETTER MARK",
	0x200b: "ZERO WIDTH SPACE",
	0x200c: "ZERO WIDTH NON-JOINER",
	0x200d: "ZERO WIDTH JOINER",
	0x200e: "LEFT-TO-RIGHT MARK",
	0x200f: "RIGHT-TO-LEFT MARK",
	0x2028: "LINE SEPARATOR",
	0x2029: "PARAGRAPH SEPARATOR",
	0x202a: "LEFT-TO-RIGHT EMBEDDING",
	0x202b: "RIGHT-TO-LEFT EMBEDDING",
	0x202c: "POP DIRECTIONAL FORMATTING",
	0x202d: "LEFT-TO-RIGHT OVERRIDE",
	0x202e: "RIGHT-TO-LEFT OVERRIDE",
	0x2060: "WORD JOINER",
	0x2066: "LEFT-TO-RIGHT ISOLATE",
	0x2067: "RIGHT-TO-LEFT ISOLATE",
	0x2068: "FIRST STRONG ISOLATE",
	0x2069: "POP DIRECTIONAL ISOLATE",
	0x3164: "HANGUL FILLER",
	0xfeff: "ZERO WIDTH NO-BREAK SPACE",
}

// isInvisible reports whether r is shown as nothing, or moves or reorders
// what is shown: C0 and C1 controls but tab and newline (a carriage return
// is judged by the caller), DEL, every format character (Unicode category
// Cf: the bidirectional marks, embeddings, overrides and isolates, the
// zero-width characters, U+FEFF, the tag characters), the line and
// paragraph separators, and the Hangul fillers, which render blank.
func isInvisible(r rune) bool {
	switch {
	case r == '\t' || r == '\n':
		return false
	case r < 0x20 || r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x2028 || r == 0x2029:
		return true
	case r == 0x115f || r == 0x1160 || r == 0x3164 || r == 0xffa0:
		return true
	}
	return unicode.Is(unicode.Cf, r)
}

// hiddenIn returns, in order of first appearance and each once, the
// characters of s a reader cannot see (isInvisible), and 0xFFFD for bytes
// that are not UTF-8. A carriage return before a newline is allowed when
// crlf is set: it is part of the file's line endings.
func hiddenIn(s string, crlf bool) []rune {
	var out []rune
	seen := map[rune]bool{}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		bad := r == utf8.RuneError && size == 1 || isInvisible(r)
		if r == '\r' && crlf && i+1 < len(s) && s[i+1] == '\n' {
			bad = false
		}
		if bad && !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
		i += size
	}
	return out
}

// Hidden returns the characters of the change's new text a reader of a
// suggestion cannot see; a change that holds any is not suggestable.
func (c Change) Hidden() []rune { return hiddenIn(c.New, c.CRLF) }

// showHidden writes s with every character hiddenIn finds as <U+XXXX> (a
// byte that is not UTF-8 as <0xXX>), keeping the carriage returns of a
// CRLF file out of sight.
func showHidden(s string, crlf bool) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, "<0x%02X>", s[i])
		case r == '\r' && crlf && i+1 < len(s) && s[i+1] == '\n':
		case isInvisible(r):
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// hiddenNote says why a change is not a suggestion and shows it escaped.
func hiddenNote(c *Change, hidden []rune) string {
	names := make([]string, len(hidden))
	for i, r := range hidden {
		names[i] = runeName(r)
	}
	content := showHidden(c.New, c.CRLF)
	if content != "" && !strings.HasSuffix(content, "\n") {
		content += "\n"
	}
	f := fence(content)
	return fmt.Sprintf("**No one-click suggestion:** the new text holds characters a reader cannot see (%s); "+
		"a suggestion shows them as nothing, so what is applied could differ from what is read (Trojan Source). "+
		"The new lines, with each such character written out:\n\n%stext\n%s%s\n",
		strings.Join(names, ", "), f, content, f)
}

// runeName is "U+202E RIGHT-TO-LEFT OVERRIDE", or the code point and its
// kind when it has no name here.
func runeName(r rune) string {
	switch name, ok := invisibleNames[r]; {
	case ok:
		return fmt.Sprintf("U+%04X %s", r, name)
	case r == utf8.RuneError:
		return "bytes that are not UTF-8"
	case r < 0x20 || r >= 0x7f && r <= 0x9f:
		return fmt.Sprintf("U+%04X, a control character", r)
	}
	return fmt.Sprintf("U+%04X, a format character", r)
}
