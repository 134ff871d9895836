package extract

import "strings"

// Results of a block start.
const (
	startNone      = iota
	startContainer // a container opened; look for more starts on the line
	startLeaf      // a leaf opened; the rest of the line is its content
)

// tryStarts tries each block start in CommonMark's order.
func (p *parser) tryStarts(container *node) int {
	for _, start := range []func(*parser, *node) int{
		startQuote, startATX, startFence, startHTML, startSetext,
		startThematic, startItem, startIndented,
	} {
		if res := start(p, container); res != startNone {
			return res
		}
	}
	return startNone
}

// maxNesting bounds how deep block quotes and list items nest. Deeper
// markers are read as text, so that a line of a million ">" costs neither a
// million open blocks nor a walk through them on every later line.
const maxNesting = 128

func startQuote(p *parser, _ *node) int {
	c := &p.c
	if c.indented || c.peek(c.nextNonspace) != '>' || len(p.open) > maxNesting {
		return startNone
	}
	c.advanceNextNonspace()
	c.advanceOffset(1, false)
	if isSpaceOrTab(c.peek(c.offset)) {
		c.advanceOffset(1, true)
	}
	p.closeUnmatched()
	p.addChild(&node{kind: kQuote})
	return startContainer
}

func startATX(p *parser, _ *node) int {
	c := &p.c
	if c.indented {
		return startNone
	}
	s := c.line[c.nextNonspace:]
	n := run(s, '#')
	if n < 1 || n > 6 || (n < len(s) && !isSpaceOrTab(s[n])) {
		return startNone
	}
	return p.oneLineBlock()
}

// oneLineBlock opens a heading or thematic break, which takes the line.
func (p *parser) oneLineBlock() int {
	p.closeUnmatched()
	p.addChild(&node{kind: kHeading})
	p.c.offset, p.c.partialTab = len(p.c.line), false
	return startLeaf
}

func startFence(p *parser, _ *node) int {
	c := &p.c
	if c.indented {
		return startNone
	}
	ch, n := openingFence(c.line[c.nextNonspace:])
	if n == 0 {
		return startNone
	}
	p.closeUnmatched()
	p.addChild(&node{kind: kFence, fenceChar: ch, fenceLen: n, fenceOffset: c.indent})
	c.advanceNextNonspace()
	c.advanceOffset(n, false)
	return startLeaf
}

func startHTML(p *parser, container *node) int {
	c := &p.c
	if c.indented || c.peek(c.nextNonspace) != '<' {
		return startNone
	}
	t := htmlBlockStart(c.line[c.nextNonspace:])
	if t == 0 {
		return startNone
	}
	lazy := !p.allClosed && !c.blank && p.tip().kind == kParagraph
	if t == 7 && (container.kind == kParagraph || lazy) {
		return startNone // type 7 cannot interrupt a paragraph
	}
	p.closeUnmatched()
	p.addChild(&node{kind: kHTML, htmlType: t})
	return startLeaf
}

// startSetext turns the paragraph this line continues into a heading.
func startSetext(p *parser, container *node) int {
	c := &p.c
	if c.indented || container.kind != kParagraph || !isSetextLine(c.line[c.nextNonspace:]) {
		return startNone
	}
	p.closeUnmatched()
	if para := p.tip(); para.keep && stripRefDefs(string(para.content)) == "" {
		return startNone // only link reference definitions: no heading
	}
	p.tip().kind = kHeading
	p.version++
	c.offset, c.partialTab = len(c.line), false
	return startLeaf
}

func isSetextLine(s string) bool {
	if s == "" || (s[0] != '=' && s[0] != '-') {
		return false
	}
	return trimSpaceTab(s[run(s, s[0]):]) == ""
}

func startThematic(p *parser, _ *node) int {
	c := &p.c
	if c.indented || !isThematicBreak(c.line[c.nextNonspace:]) {
		return startNone
	}
	return p.oneLineBlock()
}

func isThematicBreak(s string) bool {
	if s == "" || !strings.ContainsRune("*-_", rune(s[0])) {
		return false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case s[0]:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

func startIndented(p *parser, _ *node) int {
	c := &p.c
	if !c.indented || p.tip().kind == kParagraph || c.blank {
		return startNone
	}
	c.advanceOffset(codeIndent, true)
	p.closeUnmatched()
	p.addChild(&node{kind: kIndentedCode})
	return startLeaf
}
