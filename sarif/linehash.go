package sarif

import (
	"strconv"
	"unicode/utf8"
)

// The rolling hash GitHub's upload-sarif (codeql-action src/fingerprints.ts)
// stores as partialFingerprints.primaryLocationLineHash. It is reimplemented
// here from its description:
//
//   - the file is read as UTF-8 and hashed over its UTF-16 code units;
//   - spaces and tabs are skipped, CR and CRLF count as one LF;
//   - the hash of a line covers the hashBlock kept characters that start at
//     the line's first kept character, running into later lines when needed;
//   - after the last character comes the value 65535, then zeros, so that
//     every line has hashBlock characters;
//   - h = h*37 + c - 37^100*c_out with 64-bit wrap-around;
//   - the value is written as unpadded lower-case hex, followed by ":" and
//     the 1-based count of lines of the file with the same hash so far.
const (
	hashBlock = 100
	hashMod   = 37
	hashEOF   = 65535
)

// hashFirstMod is 37^100 modulo 2^64.
var hashFirstMod = func() uint64 {
	m := uint64(1)
	for range hashBlock {
		m *= hashMod
	}
	return m
}()

// lineHasher holds the state of the rolling hash over one file.
type lineHasher struct {
	window [hashBlock]uint64
	lines  [hashBlock]int // line starting at this window slot, or 0
	index  int
	hash   uint64
	line   int
	start  bool // the next kept character starts a line
	prevCR bool
	counts map[uint64]int
	out    []string
}

// LineHash returns the primaryLocationLineHash of every line of content:
// element i is the value for line i+1. A file ending in a newline has one
// more (empty) line, as upload-sarif counts them.
func LineHash(content []byte) []string {
	h := &lineHasher{start: true, counts: map[uint64]int{}}
	for len(content) > 0 {
		r, size := utf8.DecodeRune(content)
		content = content[size:]
		if r >= 0x10000 {
			r -= 0x10000
			h.char(uint64(0xD800 + (r >> 10)))
			h.char(uint64(0xDC00 + (r & 0x3FF)))
			continue
		}
		h.char(uint64(r)) // invalid UTF-8 decodes to U+FFFD, as in Node
	}
	h.char(hashEOF)
	for range hashBlock {
		if h.lines[h.index] != 0 {
			h.emit()
		}
		h.update(0)
	}
	return h.out
}

func (h *lineHasher) char(c uint64) {
	if c == ' ' || c == '\t' || (h.prevCR && c == '\n') {
		h.prevCR = false
		return
	}
	h.prevCR = c == '\r'
	if c == '\r' {
		c = '\n'
	}
	if h.lines[h.index] != 0 {
		h.emit()
	}
	if h.start {
		h.start = false
		h.line++
		h.lines[h.index] = h.line
	}
	if c == '\n' {
		h.start = true
	}
	h.update(c)
}

func (h *lineHasher) update(c uint64) {
	out := h.window[h.index]
	h.window[h.index] = c
	h.hash = hashMod*h.hash + c - hashFirstMod*out
	h.index = (h.index + 1) % hashBlock
}

// emit records the hash of the line that starts at the current slot. Lines
// are emitted in order, so the result slice is indexed by line number.
func (h *lineHasher) emit() {
	h.counts[h.hash]++
	h.out = append(h.out, strconv.FormatUint(h.hash, 16)+":"+strconv.Itoa(h.counts[h.hash]))
	h.lines[h.index] = 0
}
