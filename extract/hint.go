package extract

import (
	"fmt"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// hint finds the first line that looks like an agc fence but is not one,
// and says why, for the "none" error. It returns 0, "" when there is none.
func (d *doc) hint() (line int, why string) {
	_ = ast.Walk(d.root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		lines := leafLines(n)
		if lines == nil {
			return ast.WalkContinue, nil
		}
		for _, seg := range lines {
			s := seg.Value(d.src.text)
			if !looksLikeAgcFence(string(s)) || (n.Kind() == ast.KindHeading && isATXHeading(d.src.text, seg.Start)) {
				continue
			}
			line, why = d.src.lineOf(seg.Start), d.why(n, string(s), seg.Start)
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	return line, why
}

// leafLines returns the source lines of a leaf block that holds text.
func leafLines(n ast.Node) []text.Segment {
	switch n := n.(type) {
	case *ast.HTMLBlock:
		segs := n.Lines().Sliced(0, n.Lines().Len())
		if n.HasClosure() {
			segs = append(segs, n.ClosureLine)
		}
		return segs
	case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.Paragraph, *ast.Heading:
		return n.Lines().Sliced(0, n.Lines().Len())
	}
	return nil
}

func (d *doc) why(n ast.Node, s string, start int) string {
	switch n.Kind() {
	case ast.KindFencedCodeBlock:
		return fmt.Sprintf("is content of the code block opened at line %d, which is not closed before it", d.src.lineOf(n.Pos()))
	case ast.KindHTMLBlock:
		return fmt.Sprintf("is content of the HTML block opened at line %d; end the HTML block with a blank line", d.src.lineOf(n.Pos()))
	case ast.KindCodeBlock:
		return "is indented 4 or more spaces; indent a fence 0 to 3 spaces"
	}
	s = trimSpaceTab(s)
	switch {
	case s[0] == '`' && strings.Contains(strings.TrimLeft(s, "`"), "`"):
		return "a backtick fence's info string may not contain backticks"
	case indentBefore(d.src.text, start) >= 4:
		return "is indented 4 or more spaces; indent a fence 0 to 3 spaces"
	}
	return "is not a fence here; put it on a line of its own, indented 0 to 3 spaces"
}

// looksLikeAgcFence reports whether line, trimmed, is a run of 3 or more
// backticks or tildes followed by an info string whose first word is agc.
func looksLikeAgcFence(line string) bool {
	s := trimSpaceTab(strings.TrimRight(line, "\n"))
	if s == "" || (s[0] != '`' && s[0] != '~') {
		return false
	}
	rest := strings.TrimLeft(s, s[:1])
	return len(s)-len(rest) >= 3 && infoLang(trimSpaceTab(rest)) == agcLang
}

// indentBefore counts the spaces just before src[i] on its line (source
// text has the tabs there expanded).
func indentBefore(src []byte, i int) int {
	n := 0
	for i--; i >= 0 && src[i] == ' '; i-- {
		n++
	}
	return n
}

// isATXHeading reports whether the text at src[i] follows a "#" on its
// line: an ATX heading's text is not a line of its own.
func isATXHeading(src []byte, i int) bool {
	for i--; i >= 0 && (src[i] == ' ' || src[i] == '\t'); i-- {
	}
	return i >= 0 && src[i] == '#'
}

func trimSpaceTab(s string) string {
	return strings.Trim(s, " \t")
}
