package extract

import "strings"

// stripRefDefs removes the link reference definitions that begin a
// paragraph's content (lines joined by "\n", each ended by one) and returns
// the rest, as commonmark.js does before it turns a paragraph into a setext
// heading: a paragraph of nothing but definitions is no heading.
func stripRefDefs(s string) string {
	for strings.HasPrefix(s, "[") {
		n := refDef(s)
		if n == 0 {
			break
		}
		s = s[n:]
	}
	return s
}

// refDef returns the length of the link reference definition at the start
// of s, or 0 (commonmark.js's parseReference).
func refDef(s string) int {
	label := linkLabel(s)
	if label == 0 || label >= len(s) || s[label] != ':' || strings.Trim(s[1:label-1], " \t\n\r\f\v") == "" {
		return 0
	}
	pos := spnl(s, label+1)
	end, ok := linkDest(s, pos)
	if !ok {
		return 0
	}
	beforeTitle := end
	pos = spnl(s, end)
	if pos != beforeTitle {
		if t := linkTitle(s[pos:]); t > 0 {
			if n := spaceToLineEnd(s, pos+t); n > 0 {
				return n
			}
		}
	}
	return spaceToLineEnd(s, beforeTitle)
}

// linkLabel returns the length of "[...]" at the start of s (at most 999
// bytes inside, no unescaped brackets), or 0.
func linkLabel(s string) int {
	for i := 1; i < len(s) && i <= 1000; i++ {
		switch s[i] {
		case ']':
			return i + 1
		case '[':
			return 0
		case '\\':
			i++
		}
	}
	return 0
}

// spnl skips spaces, at most one newline, and spaces.
func spnl(s string, i int) int {
	i += run(s[i:], ' ')
	if i < len(s) && s[i] == '\n' {
		i++
		i += run(s[i:], ' ')
	}
	return i
}

// spaceToLineEnd returns the position after spaces and a newline from i, or
// 0 when something else follows.
func spaceToLineEnd(s string, i int) int {
	i += run(s[i:], ' ')
	switch {
	case i == len(s):
		return i
	case s[i] == '\n':
		return i + 1
	}
	return 0
}

// linkDest returns the end of the link destination starting at i.
func linkDest(s string, i int) (int, bool) {
	if i < len(s) && s[i] == '<' {
		for j := i + 1; j < len(s); j++ {
			switch s[j] {
			case '>':
				return j + 1, true
			case '<', '\n', 0:
				return 0, false
			case '\\':
				if j+1 < len(s) && s[j+1] != '\n' {
					j++
				}
			}
		}
		return 0, false
	}
	j, parens := i, 0
loop:
	for j < len(s) {
		switch c := s[j]; {
		case c == '\\' && j+1 < len(s) && isASCIIPunct(s[j+1]):
			j += 2
		case c == '(':
			parens++
			j++
		case c == ')':
			if parens < 1 {
				break loop
			}
			parens--
			j++
		case c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r':
			break loop
		default:
			j++
		}
	}
	if (j == i && (j >= len(s) || s[j] != ')')) || parens != 0 {
		return 0, false
	}
	return j, true
}

// linkTitle returns the length of a quoted or parenthesised title at the
// start of s, or 0.
func linkTitle(s string) int {
	if s == "" {
		return 0
	}
	closer := map[byte]byte{'"': '"', '\'': '\'', '(': ')'}[s[0]]
	if closer == 0 {
		return 0
	}
	for j := 1; j < len(s); j++ {
		switch c := s[j]; {
		case c == closer:
			return j + 1
		case c == 0 || (s[0] == '(' && c == '('):
			return 0
		case c == '\\' && j+1 < len(s):
			j++
		}
	}
	return 0
}
