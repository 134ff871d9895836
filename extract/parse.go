package extract

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// fence is a fenced code block of the message.
type fence struct {
	Start, End int // End: the closing fence's line, or the last line the block covered
	Closed     bool
	AtEOF      bool // not closed, and ran to the end of the message
	Nested     bool // inside a block quote or list item
	Info       string
	Lang       string
	node       *ast.FencedCodeBlock
}

// content is the block's content, every line ended by "\n".
func (f fence) content(src *source) []byte {
	out := []byte{}
	lines := f.node.Lines()
	for i := range lines.Len() {
		out = append(out, src.rest(lines.At(i).Start)...)
		out = append(out, '\n')
	}
	return out
}

// doc is a message parsed by goldmark.
type doc struct {
	src    *source
	root   ast.Node
	fences []fence
}

var fencesKey = parser.NewContextKey()

// blockParser reads block structure only: no inline parsers, so paragraph
// text is never parsed for emphasis or links. Link reference definitions
// are still taken out of paragraphs, as they decide setext headings.
var blockParser = parser.NewParser(
	parser.WithBlockParsers(blockParsers()...),
	parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
)

func blockParsers() []util.PrioritizedValue {
	ps := parser.DefaultBlockParsers()
	fp := parser.NewFencedCodeBlockParser()
	for i, p := range ps {
		if p.Value == fp {
			ps[i].Value = fenceParser{fp}
		}
	}
	return ps
}

// fenceParser is goldmark's fenced code block parser, watched: it records
// the line each fence opens on and the line of its closing fence, which the
// AST does not keep.
type fenceParser struct{ parser.BlockParser }

type fenceLines struct {
	node       ast.Node
	start, end int // 1-based; end 0 when no closing fence was seen
	indent     int // spaces before the opening fence
}

func (p fenceParser) Open(parent ast.Node, r text.Reader, pc parser.Context) (ast.Node, parser.State) {
	line, _ := r.Position()
	indent := pc.BlockOffset()
	n, st := p.BlockParser.Open(parent, r, pc)
	if n != nil {
		rec := pc.Get(fencesKey).(*[]fenceLines)
		*rec = append(*rec, fenceLines{node: n, start: line + 1, indent: indent})
	}
	return n, st
}

func (p fenceParser) Continue(n ast.Node, r text.Reader, pc parser.Context) parser.State {
	lineNo, _ := r.Position()
	line, seg := r.PeekLine()
	st := p.BlockParser.Continue(n, r, pc)
	rec := *pc.Get(fencesKey).(*[]fenceLines)
	last := &rec[len(rec)-1]
	if last.node != n {
		return st
	}
	switch {
	case st&parser.Close != 0:
		last.end = lineNo + 1
	case util.IsBlank(line) && len(line)-1 < last.indent:
		// goldmark keeps a blank line narrower than the fence's
		// indentation whole; CommonMark removes it all. (The line's
		// spaces, a container prefix, hold no tabs.)
		lines := n.Lines()
		lines.Set(lines.Len()-1, text.NewSegment(seg.Stop-1, seg.Stop-1))
	}
	return st
}

// parse reads message as CommonMark and lists its fenced code blocks.
func parse(message []byte) *doc {
	d := &doc{src: newSource(message)}
	var rec []fenceLines
	pc := parser.NewContext()
	pc.Set(fencesKey, &rec)
	d.root = blockParser.Parse(text.NewReader(d.src.text), parser.WithContext(pc))
	for _, fl := range rec {
		d.fences = append(d.fences, d.fence(fl))
	}
	return d
}

func (d *doc) fence(fl fenceLines) fence {
	n := fl.node.(*ast.FencedCodeBlock)
	f := fence{Start: fl.start, End: fl.end, Closed: fl.end > 0, node: n}
	if !f.Closed {
		f.End = f.Start + n.Lines().Len()
		f.AtEOF = f.End == d.src.nLines()
	}
	if n.Info != nil {
		f.Info = string(n.Info.Segment.Value(d.src.text))
		f.Lang = infoLang(f.Info)
	}
	f.Nested = n.Parent() != nil && n.Parent().Kind() != ast.KindDocument
	return f
}
