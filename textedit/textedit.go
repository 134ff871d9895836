// Package textedit turns a replacement of a byte range of a file into a
// patch remedy's edit ({path, find, replace}) whose find text occurs exactly
// once in the file, as review.ResolveEdit requires, so the suggestion made
// from it replaces exactly those bytes. Readers of formats that give fixes
// as ranges (rdf) or as hunks (udiff) share it. It does no I/O: it is given the
// file's bytes.
package textedit

import (
	"bytes"

	"github.com/agcgate/agc-action/agc"
)

// maxWiden bounds how many lines a find text is widened by, each way, to
// make it unique; past it the edit is given up.
const maxWiden = 50

// Unique returns the edit that replaces data[start:end] with text in the
// file at path. Its find text is the replaced bytes when they occur once in
// data; otherwise (an insertion, or bytes that occur again) the whole lines
// around them, widened by one line above and below at a time until the text
// occurs once. ok is false when no such text exists within maxWiden lines,
// or the range is not inside data.
func Unique(path string, data []byte, start, end int, text string) (agc.Edit, bool) {
	if start < 0 || end < start || end > len(data) {
		return agc.Edit{}, false
	}
	if start < end && Once(data, data[start:end]) {
		return agc.Edit{Path: path, Find: string(data[start:end]), Replace: text}, true
	}
	s := lineStart(data, start)
	e := end
	if e == s || data[e-1] != '\n' {
		e = lineEnd(data, end)
	}
	for i := 0; i <= maxWiden; i++ {
		if s < e && Once(data, data[s:e]) {
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

// Once reports whether find occurs exactly once in data, counting
// overlapping occurrences, as review.ResolveEdit does.
func Once(data, find []byte) bool {
	i := bytes.Index(data, find)
	return i >= 0 && !bytes.Contains(data[i+1:], find)
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
