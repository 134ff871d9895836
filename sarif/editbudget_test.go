package sarif

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestFixTextBounded is the attack of results whose fixes each delete a
// whole source file, named by a region of a few bytes of log: their find
// texts were the file each time, 266 times the log's size for an 80 kB
// file (second read). The region text of one log is bounded by
// textedit.MaxEditText; past it a fix is not a patch.
func TestFixTextBounded(t *testing.T) {
	const limit = 1 << 20
	src := strings.Repeat("line of the source file\n", 4000) // 96 kB
	s := NewSource(fstest.MapFS{"big.go": {Data: []byte(src)}})
	s.texts.Max = limit
	fix := Fix{Changes: []Change{{Path: "big.go", Relative: true,
		Replacements: []Replacement{{Deleted: Region{StartLine: 1, EndLine: 4000}, Inserted: "x"}}}}}
	text, made := 0, 0
	for range 100 {
		if edits, why := fixEdits(fix, s); why == "" {
			made++
			for _, e := range edits {
				text += len(e.Find)
			}
		}
	}
	if text > limit || made == 0 || made == 100 {
		t.Errorf("%d of 100 fixes made, holding %d bytes of text; want some, within %d", made, text, limit)
	}
}

// TestOffsetASCIIIsWalk: the column of an ASCII line, taken as its byte,
// is the one walking the line's UTF-16 units gives, on lines with and
// without other characters, at every column and past them.
func TestOffsetASCIIIsWalk(t *testing.T) {
	data := []byte("abc\r\nx\u00e9y\U0001F600z\n\nplain line\n")
	f := &srcFile{data: data, starts: lineStarts(data)}
	walk := &srcFile{data: data, starts: f.starts, ascii: make([]uint8, len(f.starts))}
	for i := range walk.ascii {
		walk.ascii[i] = 2 // never the shortcut
	}
	for n := 1; n <= len(f.starts); n++ {
		for col := -1; col < 16; col++ {
			got, gok := f.offset(n, col)
			want, wok := walk.offset(n, col)
			if got != want || gok != wok {
				t.Errorf("line %d column %d: %d, %v; walking %d, %v", n, col, got, gok, want, wok)
			}
		}
	}
}
