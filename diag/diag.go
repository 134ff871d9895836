// Package diag owns how agc-action names a place in an input and how a
// diagnostic about that place reads. An input that cannot be read is an
// *Error, the one error type with a place (extract.Error, which also names
// every block of a message, embeds a Place and prints the same way);
// validate.Violation and Lint, the one type of advice a reader gives about
// input it could still read, embed a Place too. It does no I/O.
//
// A diagnostic is one line in one form, the one compilers print and editors
// and GitHub problem matchers parse, with the JSON pointer after the place:
//
//	FILE:LINE:COLUMN: POINTER: MESSAGE
//	review.json:4:17: /findings/0/severity: value must be one of "blocking", "advisory"
//
// What is not known is left out with its separator (FILE:LINE: MESSAGE,
// FILE: POINTER: MESSAGE, FILE: MESSAGE), and so is the empty pointer, which
// names the whole document. Lines and columns count from 1; a column counts
// bytes from the start of its line, as Go and gcc do (for ASCII text it is
// the character column).
package diag

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode"
)

// Place is where in an input something is. Any part may be unknown.
type Place struct {
	File    string // the input's name as the user gave it; "" when not known
	Line    int    // 1-based line; 0 when not known
	Column  int    // 1-based column, in bytes; 0 when not known
	Offset  int64  // 0-based byte offset into the file; known only when Column > 0
	Pointer string // JSON pointer (RFC 6901) into the document; "" is the whole document
}

// At is the place of byte off of src: its line, column and offset. An
// offset past the end of src is the end of src; a negative one is no
// position at all.
//
// At reads src from its start to off: to place many offsets of one
// source, ScanCounter.AtAll reads it once for all of them.
func At(src []byte, off int64) Place { return (*ScanCounter)(nil).At(src, off) }

// At is At(src, off), counting the bytes it reads in c.
func (c *ScanCounter) At(src []byte, off int64) Place {
	if off < 0 {
		return Place{}
	}
	off = min(off, int64(len(src)))
	before := src[:off]
	c.Add(len(before))
	start := int64(bytes.LastIndexByte(before, '\n') + 1)
	return Place{
		Line:   bytes.Count(before, []byte("\n")) + 1,
		Column: int(off-start) + 1,
		Offset: off,
	}
}

// AtAll is At of each offset, byte for byte, reading src once: the
// offsets are visited in increasing order (a Cursor), each line break
// counted once, so placing k offsets in n bytes costs O(n + k log k), not
// O(k·n). A log whose every result draws a lint has as many offsets as
// results. It counts the bytes it reads in c.
func (c *ScanCounter) AtAll(src []byte, offs []int64) []Place {
	out := make([]Place, len(offs))
	order := make([]int, 0, len(offs))
	for i, off := range offs {
		if off >= 0 {
			order = append(order, i)
		}
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(offs[a], offs[b]) })
	cur := c.NewCursor(src)
	for _, i := range order {
		out[i] = cur.At(offs[i])
	}
	return out
}

// Cursor places offsets of one source that come in increasing order, as
// a reader meets its errors, reading each byte of the source once.
type Cursor struct {
	scans      *ScanCounter
	src        []byte
	pos, start int64 // src[:pos] is read; the line there starts at start
	line       int
}

// NewCursor is a Cursor at the start of src, counting the bytes it reads
// in c.
func (c *ScanCounter) NewCursor(src []byte) *Cursor {
	return &Cursor{scans: c, src: src, line: 1}
}

// At is At(src, off). An offset before the one placed last is placed by
// At itself, reading from the start.
func (c *Cursor) At(off int64) Place {
	if off < 0 {
		return Place{}
	}
	off = min(off, int64(len(c.src)))
	if off < c.pos {
		return c.scans.At(c.src, off)
	}
	seg := c.src[c.pos:off]
	c.scans.Add(len(seg))
	if n := bytes.Count(seg, []byte("\n")); n > 0 {
		c.line += n
		c.start = c.pos + int64(bytes.LastIndexByte(seg, '\n')) + 1
	}
	c.pos = off
	return Place{Line: c.line, Column: int(off-c.start) + 1, Offset: off}
}

// ScanCounter counts the bytes of their inputs that the functions it is
// passed to read, so that a test can tell linear work from quadratic
// without a clock: a test passes one to the call it measures (an
// option), and reads Bytes after. Its methods are the placing functions
// of this package, counting; a nil *ScanCounter counts nothing, and the
// functions are its methods on nil.
type ScanCounter struct {
	bytes atomic.Int64
}

// Add counts n bytes read.
func (c *ScanCounter) Add(n int) {
	if c != nil {
		c.bytes.Add(int64(n))
	}
}

// Bytes is how many bytes were counted.
func (c *ScanCounter) Bytes() int64 {
	if c == nil {
		return 0
	}
	return c.bytes.Load()
}

// LineOffset is the offset of the first byte of line n (1-based) of data,
// the inverse of At for column 1; line count+1 (after a final line break)
// is len(data). ok is false past that. It counts the bytes it reads in c.
func (c *ScanCounter) LineOffset(data []byte, n int) (int, bool) {
	off := 0
	for k := 1; k < n; k++ {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			c.Add(len(data) - off)
			return 0, false
		}
		off += i + 1
	}
	c.Add(off)
	return off, true
}

// LineOffsets is LineOffset of each of lines, reading data once: the
// offset of the first byte of each line, or -1 where LineOffset is not ok.
// It counts the bytes it reads in c.
func (c *ScanCounter) LineOffsets(data []byte, lines []int) []int {
	out := make([]int, len(lines))
	order := make([]int, len(lines))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(lines[a], lines[b]) })
	off, line := 0, 1 // line starts at off; off < 0 once data has no more lines
	for _, i := range order {
		for off >= 0 && line < lines[i] {
			j := bytes.IndexByte(data[off:], '\n')
			if j < 0 {
				c.Add(len(data) - off)
				off = -1
				break
			}
			c.Add(j + 1)
			off += j + 1
			line++
		}
		out[i] = off
	}
	return out
}

// HasOffset reports whether p knows its byte offset.
func (p Place) HasOffset() bool { return p.Column > 0 }

// String is FILE:LINE:COLUMN, leaving out what is not known.
func (p Place) String() string {
	parts := make([]string, 0, 3)
	if p.File != "" {
		parts = append(parts, p.File)
	}
	if p.Line > 0 {
		parts = append(parts, strconv.Itoa(p.Line))
		if p.Column > 0 {
			parts = append(parts, strconv.Itoa(p.Column))
		}
	}
	return strings.Join(parts, ":")
}

// Text is the diagnostic msg at p in the package's one form:
// FILE:LINE:COLUMN: POINTER: msg, leaving out what is not known.
func (p Place) Text(msg string) string {
	var b strings.Builder
	if s := p.String(); s != "" {
		b.WriteString(s)
		b.WriteString(": ")
	}
	if p.Pointer != "" {
		b.WriteString(p.Pointer)
		b.WriteString(": ")
	}
	b.WriteString(msg)
	return b.String()
}

// Where returns p. Embedded in an error type, it lets PlaceOf find the
// place of any positioned error.
func (p Place) Where() Place { return p }

// Error is an input that cannot be read, decoded or converted, at its
// place: the one error type with a place, whichever package reads the
// input. Class, when not empty, names what kind of failure it is (agc's
// json.syntax, schema, ...) and is printed before the message.
type Error struct {
	Place
	Class string
	Msg   string
}

// Error is the diagnostic in the package's one form:
// FILE:LINE:COLUMN: POINTER: CLASS: MESSAGE, leaving out what is not known.
func (e *Error) Error() string {
	if e.Class != "" {
		return e.Place.Text(e.Class + ": " + e.Msg)
	}
	return e.Place.Text(e.Msg)
}

// Errorf is an *Error at p with a formatted message and no class.
func Errorf(p Place, format string, args ...any) *Error {
	return &Error{Place: p, Msg: fmt.Sprintf(format, args...)}
}

// PlaceOf returns the place of the first error in err's chain that has one.
func PlaceOf(err error) (Place, bool) {
	var pe interface{ Where() Place }
	if errors.As(err, &pe) {
		return pe.Where(), true
	}
	return Place{}, false
}

// Lint is advice about an input that was still read: the caller prints it,
// and it changes no exit code.
type Lint struct {
	Place
	Message string
	// More is, in the one summary lint a bounded list ends with (Lints),
	// how many lints were counted and not kept; 0 in every other lint.
	More int
}

// String is the lint in the package's one form.
func (l Lint) String() string { return l.Place.Text(l.Message) }

// OneLine shows s on one line of a terminal or a log: every control
// character becomes a space, and each run of white space one space.
func OneLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}
