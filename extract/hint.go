package extract

import "fmt"

// hints remembers the first line that looks like an agc fence but is not
// one, and why, for the "none" error.
type hints struct {
	line int
	why  string
}

// observe is called for each line added to a leaf block.
func (h *hints) observe(p *parser) {
	if h.line > 0 {
		return
	}
	c := &p.c
	s := trimSpaceTab(c.line[c.offset:])
	ch := byte(0)
	if s != "" {
		ch = s[0]
	}
	n := run(s, ch)
	if n < 3 || (ch != '`' && ch != '~') || infoLang(trimSpaceTab(s[n:])) != agcLang {
		return
	}
	tip := p.tip()
	switch {
	case tip.kind == kFence && tip.started:
		h.why = fmt.Sprintf("is content of the code block opened at line %d, which is not closed before it", tip.line)
	case tip.kind == kHTML:
		h.why = fmt.Sprintf("is content of the HTML block opened at line %d; end the HTML block with a blank line", tip.line)
	case tip.kind == kFence:
		return // the fence itself: an agc fence is never a hint
	case c.indent >= codeIndent:
		h.why = "is indented 4 or more spaces; indent a fence 0 to 3 spaces"
	case ch == '`':
		h.why = "a backtick fence's info string may not contain backticks"
	default:
		h.why = "is not a fence here; put it on a line of its own, indented 0 to 3 spaces"
	}
	h.line = p.lineNo
}
