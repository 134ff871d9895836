package extract

// kind is the type of an open CommonMark block. Lists are not kept: a list
// only groups items, which is all the structure fences depend on.
type kind uint8

const (
	kDocument kind = iota
	kQuote
	kItem
	kParagraph
	kFence
	kIndentedCode
	kHTML
	kHeading // ATX or setext heading, or thematic break: one line, no content
)

// node is an open block.
type node struct {
	kind     kind
	line     int  // 1-based line where it starts
	hasChild bool // for an item: whether anything was put in it

	itemIndent int // item: markerOffset + padding, the continuation indent

	fenceChar   byte
	fenceLen    int
	fenceOffset int
	started     bool // the first line (a fence's info string) was added
	lang        string
	info        string
	keep        bool // collect content
	content     []byte
	lastLine    int

	htmlType int
}

func (k kind) isContainer() bool { return k == kDocument || k == kQuote || k == kItem }

func (k kind) acceptsLines() bool {
	return k == kParagraph || k == kFence || k == kIndentedCode || k == kHTML
}

// fence is a finished fenced code block.
type fence struct {
	Start, End int // End: the closing fence's line, or the last line the block covered
	Closed     bool
	AtEOF      bool // not closed, and ran to the end of the message
	Nested     bool // inside a block quote or list item
	Info       string
	Lang       string
	Content    []byte // only when collected
}
