package extract

// startItem opens a list item (commonmark.js's parseListMarker).
func startItem(p *parser, container *node) int {
	c := &p.c
	if c.indent >= codeIndent || len(p.open) > maxNesting {
		return startNone
	}
	s := c.line[c.nextNonspace:]
	markerLen := listMarker(s, container.kind == kParagraph)
	if markerLen == 0 {
		return startNone
	}
	if next := c.peek(c.nextNonspace + markerLen); next != 0 && !isSpaceOrTab(next) {
		return startNone
	}
	if container.kind == kParagraph && isBlankText(s[markerLen:]) {
		return startNone // an empty item cannot interrupt a paragraph
	}
	markerOffset := c.indent
	c.advanceNextNonspace()
	c.advanceOffset(markerLen, true)
	startCol, startOff := c.column, c.offset
	for {
		c.advanceOffset(1, true)
		if c.column-startCol >= 5 || !isSpaceOrTab(c.peek(c.offset)) {
			break
		}
	}
	spaces := c.column - startCol
	padding := markerLen + spaces
	if spaces >= 5 || spaces < 1 || c.offset >= len(c.line) {
		padding = markerLen + 1
		c.column, c.offset = startCol, startOff
		if isSpaceOrTab(c.peek(c.offset)) {
			c.advanceOffset(1, true)
		}
	}
	p.closeUnmatched()
	p.addChild(&node{kind: kItem, itemIndent: markerOffset + padding})
	return startContainer
}

// listMarker returns the length of a bullet or ordered list marker at the
// start of s, or 0. An ordered list interrupting a paragraph must start at 1.
func listMarker(s string, inParagraph bool) int {
	if s == "" {
		return 0
	}
	switch s[0] {
	case '*', '+', '-':
		return 1
	}
	d := 0
	for d < len(s) && d < 10 && '0' <= s[d] && s[d] <= '9' {
		d++
	}
	if d == 0 || d > 9 || d >= len(s) || (s[d] != '.' && s[d] != ')') {
		return 0
	}
	if inParagraph && !isOne(s[:d]) {
		return 0
	}
	return d + 1
}

func isOne(digits string) bool {
	return digits[len(digits)-1] == '1' && run(digits, '0') == len(digits)-1
}

// isBlankText reports whether s holds only whitespace.
func isBlankText(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\f', '\v', '\r', '\n':
		default:
			return false
		}
	}
	return true
}
