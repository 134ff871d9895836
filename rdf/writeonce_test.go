package rdf

import (
	"fmt"
	"io/fs"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
)

// countingFS counts the bytes of the files read through it.
type countingFS struct {
	fs.FS
	read atomic.Int64
}

func (c *countingFS) ReadFile(name string) ([]byte, error) {
	b, err := fs.ReadFile(c.FS, name)
	c.read.Add(int64(len(b)))
	return b, err
}

// TestSuggestionsWrittenInOnePass is the attack of many findings with
// patch remedies in one large file written as rdjson: each edit read the
// file again, looked for its find text in the whole of it and counted the
// file's lines up to it, O(findings × file). The file is read and indexed
// once, and the ranges are those positionAt gives.
func TestSuggestionsWrittenInOnePass(t *testing.T) {
	const lines, n = 20000, 500
	var sb strings.Builder
	for i := range lines {
		fmt.Fprintf(&sb, "v%05d\n", i+1)
	}
	src := sb.String()
	r := &agc.Response{Gate: agc.Gate{ID: "g"}}
	for i := range n {
		l := lines - i
		r.Findings = append(r.Findings, agc.Finding{
			Class: "c", Location: fmt.Sprintf("big.go:%d", l), What: "w", Severity: agc.Blocking,
			Remedy: agc.Remedy{Kind: agc.RemedyPatch, Edits: []agc.Edit{{Path: "big.go", Find: fmt.Sprintf("v%05d\n", l), Replace: "x\n"}}},
		})
	}
	fsys := &countingFS{FS: fstest.MapFS{"big.go": {Data: []byte(src)}}}
	var res *Result
	var scans diag.ScanCounter
	res = FromAGC([]*agc.Response{r}, WriteOptions{FS: fsys, findScans: &scans})
	scanned := scans.Bytes()
	if read := fsys.read.Load(); read > int64(len(src)) {
		t.Errorf("%d findings read %d bytes of a %d-byte file (%.0f times)", n, read, len(src), float64(read)/float64(len(src)))
	}
	if limit := 8*int64(len(src)) + int64(n*7); scanned > limit {
		t.Errorf("%d findings: finding their edits read %d bytes of a %d-byte file (%.0f times)", n, scanned, len(src), float64(scanned)/float64(len(src)))
	}
	for i, d := range res.Diagnostics {
		off := 7 * (lines - i - 1)
		want := Range{Start: positionAt([]byte(src), off), End: ptrTo(positionAt([]byte(src), off+7))}
		if len(d.Suggestions) != 1 || *d.Suggestions[0].Range.End != *want.End || d.Suggestions[0].Range.Start != want.Start {
			t.Fatalf("diagnostic %d: %+v, want %+v", i, d.Suggestions, want)
		}
	}
}

// TestPositionIsPositionAt: a source's line index places every offset
// where positionAt does.
func TestPositionIsPositionAt(t *testing.T) {
	for _, s := range []string{"", "\n", "a", "a\nbc\n", "a\r\nbc", "\n\nx", "ab\n\ncd\ne"} {
		src := &source{data: []byte(s)}
		for off := 0; off <= len(s); off++ {
			if got, want := src.position(off), positionAt([]byte(s), off); got != want {
				t.Errorf("%q offset %d: %+v, want %+v", s, off, got, want)
			}
		}
	}
}
