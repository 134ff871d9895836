package extract

// parser is CommonMark's block parser (the algorithm of the reference
// implementation, commonmark.js 0.31), reduced to the block structure that
// decides where fenced code blocks are.
type parser struct {
	c      cursor
	lineNo int
	open   []*node // open blocks, open[0] the document, the last the tip

	oldTip      int // index of the tip when the line began
	lastMatched int // index of the deepest block that matched this line
	allClosed   bool

	version   int // changes whenever open blocks do
	blankMemo blankMemo

	keepAll bool          // collect content of every fence, not only agc ones
	onFence func(fence)   // called as each fenced code block is finished
	onLine  func(*parser) // called for every line added to a leaf block, before it is added
}

// scan parses message and reports every fenced code block to p.onFence.
func (p *parser) scan(message string) {
	p.open = []*node{{kind: kDocument, line: 1}}
	for line := range lines(message) {
		p.lineNo++
		p.incorporate(line)
	}
	for len(p.open) > 0 {
		p.finalize(p.lineNo, true)
	}
}

func (p *parser) tip() *node { return p.open[len(p.open)-1] }

// incorporate is commonmark.js's incorporateLine.
func (p *parser) incorporate(line string) {
	p.c.reset(line)
	p.oldTip = len(p.open) - 1
	matched, done := p.matchOpen()
	if done {
		return
	}
	p.allClosed = matched == p.oldTip
	p.lastMatched = matched
	container := p.open[matched]
	leaf := container.kind != kParagraph && container.kind.acceptsLines()
	for !leaf {
		p.c.findNextNonspace()
		if !p.c.indented && !maybeSpecial(p.c.peek(p.c.nextNonspace)) {
			p.c.advanceNextNonspace()
			break
		}
		res := p.tryStarts(container)
		if res == startNone {
			p.c.advanceNextNonspace()
			break
		}
		container = p.tip()
		leaf = res == startLeaf
	}
	p.finishLine(container)
}

// matchOpen walks the open blocks, letting each consume its continuation
// markers. It returns the index of the deepest block that matched, and done
// when the line was used up (a closing fence).
func (p *parser) matchOpen() (matched int, done bool) {
	blank := isBlankText(p.c.line)
	if blank && p.blankMemo.valid && p.blankMemo.version == p.version {
		return p.replayBlank(), false
	}
	onlyItems := true
	matched = len(p.open) - 1
	for i := 1; i < len(p.open); i++ {
		p.c.findNextNonspace()
		r := p.continues(p.open[i])
		if r == contDone {
			return 0, true
		}
		if r == contFailed {
			matched = i - 1
			break
		}
		onlyItems = onlyItems && p.open[i].kind == kItem
	}
	p.blankMemo = blankMemo{valid: blank && onlyItems, version: p.version, matched: matched}
	return matched, false
}

// blankMemo remembers how a blank line went through open blocks that were
// all list items, so that a run of blank lines inside deeply nested items
// does not walk them again and again.
type blankMemo struct {
	valid   bool
	version int // parser.version it was taken at
	matched int
}

// replayBlank has a blank line go through the open blocks as the memo says:
// each matched item moves the cursor past the line's spaces.
func (p *parser) replayBlank() int {
	if p.blankMemo.matched > 0 {
		p.c.findNextNonspace()
		p.c.advanceNextNonspace()
	}
	return p.blankMemo.matched
}

// finishLine adds what remains of the line to the right block.
func (p *parser) finishLine(container *node) {
	if !p.allClosed && !p.c.blank && p.tip().kind == kParagraph {
		p.addLine(p.tip()) // lazy paragraph continuation
		return
	}
	p.closeUnmatched()
	switch {
	case container.kind.acceptsLines():
		p.addLine(container)
		if container.kind == kHTML && htmlBlockEnds(container.htmlType, p.c.line[p.c.offset:]) {
			p.finalize(p.lineNo, false)
		}
	case p.c.offset < len(p.c.line) && !p.c.blank:
		p.addChild(&node{kind: kParagraph})
		p.c.advanceNextNonspace()
		p.addLine(p.tip())
	}
}

// addLine adds the rest of the line to a leaf block.
func (p *parser) addLine(n *node) {
	if p.onLine != nil {
		p.onLine(p)
	}
	n.lastLine = p.lineNo
	switch n.kind {
	case kParagraph:
		p.addParagraphLine(n)
		return
	case kFence:
	default:
		return
	}
	if !n.started {
		n.started = true
		n.info = trimSpaceTab(p.c.line[p.c.offset:])
		n.lang = infoLang(n.info)
		n.keep = p.keepAll || n.lang == agcLang
		return
	}
	if n.keep {
		n.content = append(n.content, p.c.rest()...)
		n.content = append(n.content, '\n')
	}
}

// addChild closes blocks that cannot hold n, then opens n.
func (p *parser) addChild(n *node) {
	for !p.tip().kind.isContainer() {
		p.finalize(p.lineNo-1, false)
	}
	p.tip().hasChild = true
	p.version++
	n.line = p.lineNo
	n.lastLine = p.lineNo
	p.open = append(p.open, n)
}

// closeUnmatched closes the blocks the line did not continue.
func (p *parser) closeUnmatched() {
	if p.allClosed {
		return
	}
	for len(p.open)-1 > p.lastMatched {
		p.finalize(p.lineNo-1, false)
	}
	p.allClosed = true
}

// finalize closes the tip; end is its last line.
func (p *parser) finalize(end int, eof bool) {
	n := p.tip()
	p.open = p.open[:len(p.open)-1]
	p.version++
	if n.kind != kFence {
		return
	}
	p.emit(n, fence{Start: n.line, End: max(end, n.line), AtEOF: eof})
}

// closeFence closes the tip, a fence, at the closing fence on this line.
func (p *parser) closeFence() {
	n := p.tip()
	p.open = p.open[:len(p.open)-1]
	p.version++
	p.emit(n, fence{Start: n.line, End: p.lineNo, Closed: true})
}

func (p *parser) emit(n *node, f fence) {
	if p.onFence == nil {
		return
	}
	f.Info, f.Lang, f.Content = n.info, n.lang, n.content
	if f.Content == nil && n.keep {
		f.Content = []byte{}
	}
	f.Nested = len(p.open) > 1
	p.onFence(f)
}

func maybeSpecial(b byte) bool {
	switch b {
	case '#', '`', '~', '*', '+', '_', '=', '<', '>', '-':
		return true
	}
	return '0' <= b && b <= '9'
}

// addParagraphLine keeps the text of a paragraph that may begin with link
// reference definitions, which decide whether a setext underline makes it a
// heading.
func (p *parser) addParagraphLine(n *node) {
	text := p.c.line[p.c.offset:]
	if !n.started {
		n.started = true
		n.keep = text != "" && text[0] == '['
	}
	if n.keep {
		n.content = append(n.content, text...)
		n.content = append(n.content, '\n')
	}
}
