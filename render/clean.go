package render

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// clean makes s safe to show anywhere: invalid UTF-8 becomes U+FFFD, CRLF
// becomes LF, and every control or bidirectional-formatting character other
// than \n and \t is shown as a \uXXXX escape, so that no content can move a
// terminal's cursor, recolour it, or reorder what a reader sees. A JSON string
// stays valid JSON under clean. clean is idempotent.
func clean(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case r == '\r' && i+1 < len(s) && s[i+1] == '\n':
			// CRLF: the LF that follows is written on the next turn.
		case IsHidden(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isPlain reports whether s is printable ASCII, \n and \t only.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 0x20 && c != '\n' && c != '\t') || c >= 0x7f {
			return false
		}
	}
	return true
}

// IsHidden reports whether r is a character that is not shown as itself:
// C0 controls but \n and \t, DEL, C1 controls, the bidirectional marks,
// embeddings, overrides and isolates, and the line and paragraph
// separators.
func IsHidden(r rune) bool {
	switch {
	case r < 0x20:
		return r != '\n' && r != '\t'
	case r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x2028, r == 0x2029: // line and paragraph separators: a line break to some readers
		return true
	}
	return false
}

// oneLine cleans s and shows its line breaks as \n, for values that must stay
// on one line inside a code block (a diff header's path).
func oneLine(s string) string {
	return strings.ReplaceAll(clean(s), "\n", `\n`)
}

// splitLines cleans s and splits it into lines. A final line break does not
// start another line; the empty string is one empty line.
func splitLines(s string) []string {
	s = strings.TrimSuffix(clean(s), "\n")
	return strings.Split(s, "\n")
}
