package extract

// Results of a block's continuation check.
const (
	contMatched = iota
	contFailed
	contDone // the line was used up
)

// continues reports whether the open block n goes on on this line, and
// consumes its markers (commonmark.js's blocks[type].continue).
func (p *parser) continues(n *node) int {
	c := &p.c
	switch n.kind {
	case kQuote:
		if c.indented || c.peek(c.nextNonspace) != '>' {
			return contFailed
		}
		c.advanceNextNonspace()
		c.advanceOffset(1, false)
		if isSpaceOrTab(c.peek(c.offset)) {
			c.advanceOffset(1, true)
		}
	case kItem:
		switch {
		case c.blank && !n.hasChild:
			return contFailed // a blank line after an empty item ends it
		case c.blank:
			c.advanceNextNonspace()
		case c.indent >= n.itemIndent:
			c.advanceOffset(n.itemIndent, true)
		default:
			return contFailed
		}
	case kFence:
		return p.continueFence(n)
	case kIndentedCode:
		switch {
		case c.indent >= codeIndent:
			c.advanceOffset(codeIndent, true)
		case c.blank:
			c.advanceNextNonspace()
		default:
			return contFailed
		}
	case kHTML:
		if c.blank && (n.htmlType == 6 || n.htmlType == 7) {
			return contFailed
		}
	case kParagraph:
		if c.blank {
			return contFailed
		}
	case kHeading:
		return contFailed
	}
	return contMatched
}

func (p *parser) continueFence(n *node) int {
	c := &p.c
	if c.indent <= 3 && closingFence(c.line[c.nextNonspace:], n.fenceChar) >= n.fenceLen {
		p.closeFence()
		return contDone
	}
	for i := n.fenceOffset; i > 0 && isSpaceOrTab(c.peek(c.offset)); i-- {
		c.advanceOffset(1, true)
	}
	return contMatched
}
