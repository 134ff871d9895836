package extract

import (
	"bytes"
	"sort"
	"strings"
)

// source is a message as goldmark reads it. goldmark splits lines at "\n"
// only, so every line ending becomes one; and goldmark v1 misplaces tab
// stops after block quote and list markers (yuin/goldmark#585), so the text
// it parses has the tabs of each line's container prefix (the leading run of
// spaces, tabs, ">" and list marker characters) expanded to spaces, which
// CommonMark's block structure treats alike. Content is read back from the
// message itself.
type source struct {
	orig  []byte // the message, lines ended by "\n"
	text  []byte // orig with prefix tabs expanded: what goldmark parses
	lines []span // each line's start in text and in orig
}

type span struct{ text, orig int }

func newSource(message []byte) *source {
	s := &source{
		orig:  make([]byte, 0, len(message)+1),
		text:  make([]byte, 0, len(message)+1),
		lines: make([]span, 0, bytes.Count(message, []byte{'\n'})+bytes.Count(message, []byte{'\r'})+1),
	}
	for line := range lines(string(message)) {
		s.lines = append(s.lines, span{len(s.text), len(s.orig)})
		s.orig = append(s.orig, line...)
		s.orig = append(s.orig, '\n')
		s.text = appendExpanded(s.text, line)
		s.text = append(s.text, '\n')
	}
	return s
}

// maxNesting bounds how deep block quotes and list items nest: goldmark's
// work on a line grows with the containers open, so a line that would go
// deeper has its prefix cut there (in the parsed text only), and the
// deeper markers are read as text.
const maxNesting = 32

// appendExpanded appends line with the tabs of its container prefix
// written as spaces up to the next tab stop (of 4 columns), and the prefix
// cut after maxNesting levels.
func appendExpanded(dst []byte, line string) []byte {
	n := prefixLen(line)
	col, weight, cut := 0, 0, false // weight: 2 a marker, 1 a column of indentation
	for i := range n {
		c := line[i]
		if c == '\t' {
			w := 4 - col%4
			dst = append(dst, "    "[:w]...)
			col += w
			weight += w
			continue
		}
		switch {
		case c == '>' || isListMarker(line, i):
			weight += 2
		case c != ' ' || i == 0 || (line[i-1] != '>' && !isListMarker(line, i-1)):
			weight++ // a space after a marker is part of it
		}
		if !cut && weight > 2*maxNesting && !isBlank(line) && !isBreak(line[i:]) {
			cut, c = true, 'x'
		}
		dst = append(dst, c)
		col++
	}
	return append(dst, line[n:]...)
}

// isListMarker reports whether line[i] ends a list marker: "-", "+", "*",
// or digits then "." or ")", followed by a space, a tab or the line's end.
func isListMarker(line string, i int) bool {
	c := line[i]
	if i+1 < len(line) && line[i+1] != ' ' && line[i+1] != '\t' {
		return false
	}
	return c == '-' || c == '+' || c == '*' || ((c == '.' || c == ')') && i > 0 && '0' <= line[i-1] && line[i-1] <= '9')
}

// isBreak reports whether s is a run of "-" or "*" and spaces or tabs,
// which may be a thematic break.
func isBreak(s string) bool {
	return s[0] != '>' && strings.Trim(s, string(s[0])+" \t") == ""
}

func isBlank(s string) bool { return strings.Trim(s, " \t") == "" }

// prefixLen is the length of the leading run of bytes that may make up
// block quote markers, list markers and indentation.
func prefixLen(line string) int {
	i := 0
	for i < len(line) && isPrefixByte(line[i]) {
		i++
	}
	return i
}

func isPrefixByte(b byte) bool {
	switch b {
	case ' ', '\t', '>', '-', '+', '*', '.', ')':
		return true
	}
	return '0' <= b && b <= '9'
}

// nLines is the number of lines.
func (s *source) nLines() int { return len(s.lines) }

// line returns the 0-based line holding text offset off.
func (s *source) line(off int) int {
	return sort.Search(len(s.lines), func(i int) bool { return s.lines[i].text > off }) - 1
}

// lineOf returns the 1-based line holding text offset off.
func (s *source) lineOf(off int) int { return max(s.line(off), 0) + 1 }

// rest returns the message's line from the text offset off to its end
// (without the "\n"): where off falls inside an expanded tab, the tab's
// columns after off are written as spaces, as CommonMark does with a tab
// it consumes only in part.
func (s *source) rest(off int) []byte {
	i := s.line(off)
	start := s.lines[i].orig
	end := len(s.orig) - 1
	if i+1 < len(s.lines) {
		end = s.lines[i+1].orig - 1
	}
	line := s.orig[start:end]
	want := off - s.lines[i].text // a column, within the prefix
	col := 0
	for j := 0; j < len(line); j++ {
		if col >= want || !isPrefixByte(line[j]) {
			return line[j+want-col:]
		}
		w := 1
		if line[j] == '\t' {
			w = 4 - col%4
		}
		if col+w > want {
			return append(bytes.Repeat([]byte{' '}, col+w-want), line[j+1:]...)
		}
		col += w
	}
	return nil
}
