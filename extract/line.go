package extract

import (
	"iter"
	"strings"
)

// codeIndent is the indentation that makes a line an indented code block.
const codeIndent = 4

// lines yields the lines of s, split at LF, CRLF or a lone CR, without
// their endings. A final line ending does not start another line.
func lines(s string) iter.Seq[string] {
	return func(yield func(string) bool) {
		lf := -1 // index of the next LF at or after pos, or len(s)
		for pos := 0; pos < len(s); {
			if lf < pos {
				lf = len(s)
				if i := strings.IndexByte(s[pos:], '\n'); i >= 0 {
					lf = pos + i
				}
			}
			end, next := lf, lf+1
			if i := strings.IndexByte(s[pos:lf], '\r'); i >= 0 {
				end, next = pos+i, pos+i+1
				if next == lf {
					next++
				}
			}
			if !yield(s[pos:end]) {
				return
			}
			pos = next
		}
	}
}

// cursor walks one line the way CommonMark's block parser does: offset is a
// byte index, column a tab-expanded column (tab stops of 4), and partialTab
// says the tab at offset has been consumed only in part.
type cursor struct {
	line       string
	offset     int
	column     int
	partialTab bool

	// Set by findNextNonspace.
	nextNonspace    int
	nextNonspaceCol int
	indent          int
	indented        bool
	blank           bool
}

func (c *cursor) reset(line string) {
	*c = cursor{line: line}
}

// peek returns the byte at i, or 0 past the end of the line.
func (c *cursor) peek(i int) byte {
	if i < len(c.line) {
		return c.line[i]
	}
	return 0
}

func isSpaceOrTab(b byte) bool { return b == ' ' || b == '\t' }

func (c *cursor) findNextNonspace() {
	i, cols := c.offset, c.column
	for i < len(c.line) {
		switch c.line[i] {
		case ' ':
			i++
			cols++
			continue
		case '\t':
			i++
			cols += 4 - cols%4
			continue
		}
		break
	}
	c.blank = i == len(c.line)
	c.nextNonspace, c.nextNonspaceCol = i, cols
	c.indent = cols - c.column
	c.indented = c.indent >= codeIndent
}

func (c *cursor) advanceNextNonspace() {
	c.offset, c.column, c.partialTab = c.nextNonspace, c.nextNonspaceCol, false
}

// advanceOffset moves count characters, or count columns when columns is
// true, in which case a tab may be consumed in part.
func (c *cursor) advanceOffset(count int, columns bool) {
	for count > 0 && c.offset < len(c.line) {
		if c.line[c.offset] != '\t' {
			c.partialTab = false
			c.offset++
			c.column++
			count--
			continue
		}
		toTab := 4 - c.column%4
		if !columns {
			c.partialTab = false
			c.column += toTab
			c.offset++
			count--
			continue
		}
		c.partialTab = toTab > count
		step := min(toTab, count)
		c.column += step
		if !c.partialTab {
			c.offset++
		}
		count -= step
	}
}

// rest is what remains of the line from offset, with the unconsumed part of
// a partly consumed tab written as spaces.
func (c *cursor) rest() string {
	if !c.partialTab {
		return c.line[c.offset:]
	}
	return strings.Repeat(" ", 4-c.column%4) + c.line[c.offset+1:]
}
