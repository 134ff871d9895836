// Package textedit turns a replacement of a byte range of a file into a
// patch remedy's edit ({path, find, replace}) whose find text occurs exactly
// once in the file, as review.ResolveEdit requires, so the suggestion made
// from it replaces exactly those bytes. Readers of formats that give fixes
// as ranges (rdf) or as hunks (udiff) share it. It does no I/O: it is given the
// file's bytes.
package textedit

import (
	"bytes"
	"index/suffixarray"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
)

// maxWiden bounds how many lines a find text is widened by, each way, to
// make it unique; past it the edit is given up.
const maxWiden = 50

// maxContext bounds the bytes a find text holds around the replaced ones
// (about fifty lines of 80 columns each way); past it the edit is given
// up too. A
// line can be a whole minified file: without it, a suggestion of ten bytes
// on a line of a megabyte made a find of a megabyte, and a log of a few
// thousand such suggestions gigabytes of output.
const maxContext = 8 << 10

// scansBeforeIndex is how many finds an Index answers by reading its file
// before it indexes the file: a file asked about once or twice is read as
// before, without the index's time and memory (four bytes a byte).
const scansBeforeIndex = 4

// Index answers Once and Unique for many finds in one file. The first
// scansBeforeIndex finds are each answered by reading the file; then the
// file's suffix array is built (index/suffixarray, O(n)) and each later
// find costs O(len(find)·log n), not O(n), so that the edits of k hunks or
// diagnostics of a file of n bytes cost O(n + Σ len(find)·log n), not
// O(k·n). It is exact: every occurrence of find, overlapping ones too,
// starts a suffix of the file that has find as its prefix, and the
// suffix array holds every suffix.
type Index struct {
	// scans, if not nil, counts the bytes Find reads: the whole file for
	// a find answered by reading it, the whole file to index it, and the
	// find itself for one the index answers.
	scans *diag.ScanCounter
	data  []byte
	finds int
	sa    *suffixarray.Index
}

// NewIndex is an Index of data, counting what it reads in scans (nil:
// not counted); it reads nothing yet.
func NewIndex(data []byte, scans *diag.ScanCounter) *Index {
	return &Index{scans: scans, data: data}
}

// Find returns the offset of find's only occurrence in the file; ok is
// false when find is empty or occurs no times or more than once.
func (x *Index) Find(find []byte) (int, bool) {
	if len(find) == 0 {
		return 0, false
	}
	x.finds++
	if x.sa == nil && x.finds > scansBeforeIndex {
		x.scans.Add(len(x.data))
		x.sa = suffixarray.New(x.data)
	}
	if x.sa != nil {
		x.scans.Add(len(find))
		if at := x.sa.Lookup(find, 2); len(at) == 1 {
			return at[0], true
		}
		return 0, false
	}
	x.scans.Add(len(x.data))
	i := bytes.Index(x.data, find)
	if i < 0 || bytes.Contains(x.data[i+1:], find) {
		return 0, false
	}
	return i, true
}

// Once reports whether find occurs exactly once in the Index's file,
// counting overlapping occurrences, as review.ResolveEdit does. An empty
// find does not occur once.
func (x *Index) Once(find []byte) bool {
	_, ok := x.Find(find)
	return ok
}

// Unique returns the edit that replaces data[start:end] of the Index's
// file with text in the file at path. Its find text is the replaced bytes
// when they occur once in data; otherwise (an insertion, or bytes that
// occur again) the whole lines around them, widened by one line above and
// below at a time until the text occurs once. ok is false when no such
// text exists within maxWiden lines and maxContext bytes around the range,
// or the range is not inside data.
func (x *Index) Unique(path string, start, end int, text string) (agc.Edit, bool) {
	data := x.data
	if start < 0 || end < start || end > len(data) {
		return agc.Edit{}, false
	}
	if start < end && x.Once(data[start:end]) {
		return agc.Edit{Path: path, Find: string(data[start:end]), Replace: text}, true
	}
	s := lineStart(data, start)
	e := end
	if e == s || data[e-1] != '\n' {
		e = lineEnd(data, end)
	}
	for i := 0; i <= maxWiden && (start-s)+(e-end) <= maxContext; i++ {
		if s < e && x.Once(data[s:e]) {
			return agc.Edit{Path: path, Find: string(data[s:e]), Replace: string(data[s:start]) + text + string(data[end:e])}, true
		}
		if s == 0 && e == len(data) {
			break
		}
		if s > 0 {
			s = lineStart(data, s-1)
		}
		if e < len(data) {
			e = lineEnd(data, e)
		}
	}
	return agc.Edit{}, false
}

// lineStart is the offset of the first byte of the line holding offset i.
func lineStart(data []byte, i int) int {
	return bytes.LastIndexByte(data[:i], '\n') + 1
}

// lineEnd is the offset just past the newline that ends the line holding
// offset i, or len(data).
func lineEnd(data []byte, i int) int {
	if j := bytes.IndexByte(data[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(data)
}

// MaxEditText bounds the text (find and replace) the patch edits made
// from one input hold: the most agc-sarif reads of a response
// (agc.DefaultMaxBytes). A range or a region names its bytes by
// coordinates, and a hunk's context is widened, so a small input could
// otherwise name gigabytes.
const MaxEditText = agc.DefaultMaxBytes

// Budget is what is left of its bound for the edits of one input.
type Budget struct {
	Max  int // the bound; 0: MaxEditText (tests lower it)
	used int
}

// Limit is the bound: Max, or MaxEditText.
func (b *Budget) Limit() int {
	if b.Max > 0 {
		return b.Max
	}
	return MaxEditText
}

// Take reports whether n more bytes of edit text fit, and counts them
// when they do.
func (b *Budget) Take(n int) bool {
	if n < 0 || b.used+n > b.Limit() {
		return false
	}
	b.used += n
	return true
}
