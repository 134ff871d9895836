package rdf

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/agcgate/agc-action/textedit"
)

// TestReadLintFlood is the attack of an rdjson or rdjsonl input whose
// every diagnostic draws a lint ("a diagnostic without a message"): the
// readers keep the first diag.MaxLints and count the rest, and one
// summary lint names the true total.
func TestReadLintFlood(t *testing.T) {
	const n = 20000
	json := `{"diagnostics":[` + strings.TrimSuffix(strings.Repeat("{},", n), ",") + `]}`
	_, lints, err := ReadResult("flood.rdjson", []byte(json))
	if err != nil {
		t.Fatal(err)
	}
	check := func(what, file string, lints []diag.Lint) {
		t.Helper()
		if len(lints) != diag.MaxLints+1 || diag.Count(lints) != n {
			t.Fatalf("%s: %d lints kept standing for %d, want %d and the true total %d", what, len(lints), diag.Count(lints), diag.MaxLints+1, n)
		}
		if last := lints[len(lints)-1]; last.More != n-diag.MaxLints || last.File != file || last.Line != 0 {
			t.Errorf("%s: summary %+v", what, last)
		}
	}
	check("rdjson", "flood.rdjson", lints)
	_, lints, err = ReadLines("flood.rdjsonl", []byte(strings.Repeat("{}\n", n)))
	if err != nil {
		t.Fatal(err)
	}
	check("rdjsonl", "flood.rdjsonl", lints)
}

// TestRangesFoundInOnePass is the attack of many diagnostics far down a
// large source file: each one's line was found by counting the file's
// lines from its start (diag.LineOffset), O(diagnostics × file). The file's
// lines are indexed once, and the findings are those Offsets gives.
func TestRangesFoundInOnePass(t *testing.T) {
	const lines, n = 20000, 500
	src, log, res := manySuggestions(t, lines, n, func(i int) string {
		return fmt.Sprintf(`{"message":"m%d","location":{"path":"big.go","range":{"start":{"line":%d,"column":2}}},`+
			`"suggestions":[{"range":{"start":{"line":%d,"column":1},"end":{"line":%d,"column":3}},"text":"y%d"}]}`, i%7, lines-i, lines-i, lines-i, i)
	})
	findings := findingsLineScanned(t, res, log, "big.go", src, n)
	// The same ids as the source read for each: an id hashes its line's
	// text and its message (docs/rdf-mapping.md).
	for i, f := range findings {
		s, _, ok := offsets([]byte(src), &Range{Start: Position{Line: lines - i}}, nil)
		if !ok || s != 7*(lines-i-1) || f.Remedy.Kind != agc.RemedyPatch {
			t.Fatalf("finding %d: %+v (line at %d, %v)", i, f, s, ok)
		}
		line, _, _ := strings.Cut(src[s:], "\n")
		sum := sha256.Sum256([]byte(strings.TrimSpace(line) + "\x00" + fmt.Sprintf("m%d", i%7)))
		if want := "@" + hex.EncodeToString(sum[:6]); !strings.HasSuffix(f.ID, want) {
			t.Fatalf("finding %d: id %q, want it to end %q", i, f.ID, want)
		}
	}
}

// TestLineIndexIsLineOffset: the converter's line index finds each line
// where diag.LineOffset does.
func TestLineIndexIsLineOffset(t *testing.T) {
	for _, s := range []string{"", "\n", "a\nbc\n", "a\r\nbc", "\n\nx", "\r\n\r\n", "a\r\n", "\r", "x\r\r\ny"} {
		idx := newLineIndex([]byte(s))
		for n := -1; n < 8; n++ {
			want, wok := (*diag.ScanCounter)(nil).LineOffset([]byte(s), n)
			if got, ok := idx.start(n); ok != wok || ok && got != want {
				t.Errorf("%q line %d: %d, %v; LineOffset %d, %v", s, n, got, ok, want, wok)
			}
			if wok {
				if got, want := idx.end([]byte(s), n), lineEndNoEOL([]byte(s), want, nil); got != want {
					t.Errorf("%q line %d ends at %d; lineEndNoEOL %d", s, n, got, want)
				}
			}
		}
	}
}

// TestSuggestionsMadeInOnePass is the attack of many diagnostics with
// suggestions in one large source: each suggestion's find text was made
// unique by reading the whole source (textedit.Index.Unique), once for its
// bytes and again for each widening, O(diagnostics × file). One index of
// the source (textedit.Index) answers them all, and the edits are those
// textedit.Index.Unique makes.
func TestSuggestionsMadeInOnePass(t *testing.T) {
	const lines, n = 20000, 500
	// Even: the replaced bytes (v0) occur on every line, and the find text
	// is widened to the line; odd: they occur once.
	src, log, res := manySuggestions(t, lines, n, func(i int) string {
		return fmt.Sprintf(`{"message":"m","location":{"path":"big.go","range":{"start":{"line":%d}}},`+
			`"suggestions":[{"range":{"start":{"line":%d,"column":1},"end":{"line":%d,"column":%d}},"text":"y%d"}]}`, lines-i, lines-i, lines-i, 3+4*(i%2), i)
	})
	fsys := fstest.MapFS{"big.go": {Data: []byte(src)}}
	var rs []*agc.Response
	var scans diag.ScanCounter
	rs, _ = ToAGC(res, ToAGCOptions{FS: fsys, Input: log, findScans: &scans})
	read := scans.Bytes()
	if limit := 8*int64(len(src)) + int64(len(log)); read > limit {
		t.Errorf("%d diagnostics read %d bytes of a %d-byte source (%.0f times)", n, read, len(src), float64(read)/float64(len(src)))
	}
	if len(rs) != 1 || len(rs[0].Findings) != n {
		t.Fatalf("%d responses", len(rs))
	}
	for i, f := range rs[0].Findings {
		s := 7 * (lines - i - 1)
		want, ok := textedit.NewIndex([]byte(src), nil).Unique("big.go", s, s+2+4*(i%2), fmt.Sprintf("y%d", i))
		if !ok || len(f.Remedy.Edits) != 1 || !reflect.DeepEqual(f.Remedy.Edits[0], want) {
			t.Fatalf("finding %d: %+v, want %+v", i, f.Remedy, want)
		}
	}
}

// manySuggestions is a source of lines lines, each once ("v00001"), and
// the rdjson log, read, of n diagnostics in it, the i-th written by d(i).
func manySuggestions(t *testing.T, lines, n int, d func(i int) string) (src string, log []byte, res *Result) {
	t.Helper()
	var sb strings.Builder
	for i := range lines {
		fmt.Fprintf(&sb, "v%05d\n", i+1) // 7 bytes a line
	}
	var b strings.Builder
	b.WriteString(`{"source":{"name":"l"},"diagnostics":[`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(d(i))
	}
	b.WriteString("]}")
	res, _, err := ReadResult("many.rdjson", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return sb.String(), []byte(b.String()), res
}

// TestRangesOnOneLongLine is the attack of many suggestions on one long
// line (a minified file): where the line ends was found by reading it from
// its start for each range. The line index says where it ends.
func TestRangesOnOneLongLine(t *testing.T) {
	const width, n = 200000, 500
	src := strings.Repeat("x", width) + "\n"
	var b strings.Builder
	b.WriteString(`{"source":{"name":"l"},"diagnostics":[`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		rg := fmt.Sprintf(`{"start":{"line":1,"column":%d},"end":{"line":1,"column":%d}}`, width-n+i, width-n+i+1)
		fmt.Fprintf(&b, `{"message":"m%d","location":{"path":"min.js","range":%s},"suggestions":[{"range":%s,"text":"y"}]}`, i, rg, rg)
	}
	b.WriteString("]}")
	log := []byte(b.String())
	res, _, err := ReadResult("many.rdjson", log)
	if err != nil {
		t.Fatal(err)
	}
	findingsLineScanned(t, res, log, "min.js", src, n)
}

// findingsLineScanned converts res, whose diagnostics are in the one
// source file path, and returns the findings of its one response; it fails
// unless there are n and finding their lines read src at most twice over.
func findingsLineScanned(t *testing.T, res *Result, log []byte, path, src string, n int) []agc.Finding {
	t.Helper()
	var scans diag.ScanCounter
	rs, _ := ToAGC(res, ToAGCOptions{FS: fstest.MapFS{path: {Data: []byte(src)}}, Input: log, lineScans: &scans})
	if read := scans.Bytes(); read > 2*int64(len(src)) {
		t.Errorf("%d diagnostics in %s read %d bytes of its %d (%.0f times)", n, path, read, len(src), float64(read)/float64(len(src)))
	}
	if len(rs) != 1 || len(rs[0].Findings) != n {
		t.Fatalf("%d responses", len(rs))
	}
	return rs[0].Findings
}

// TestEditTextBounded is the attack of diagnostics that each replace a
// whole source file, named by a range of a few bytes: their find texts
// were the file each time, gigabytes for a log of a megabyte. The patch
// remedies of a log hold at most textedit.MaxEditText of text; the rest are
// linted, not made.
func TestEditTextBounded(t *testing.T) {
	const limit = 1 << 20
	const lines, n = 2000, 200 // a 14 kB source, each diagnostic replacing all of it
	src, log, res := manySuggestions(t, lines, n, func(i int) string {
		return fmt.Sprintf(`{"message":"m%d","location":{"path":"big.go","range":{"start":{"line":1}}},`+
			`"suggestions":[{"range":{"start":{"line":1,"column":1},"end":{"line":%d,"column":1}},"text":"y%d"}]}`, i, lines+1, i)
	})
	fsys := fstest.MapFS{"big.go": {Data: []byte(src)}}
	rs, lints := ToAGC(res, ToAGCOptions{FS: fsys, Input: log, maxEditText: limit})
	if len(rs) != 1 || len(rs[0].Findings) != n {
		t.Fatalf("%d responses", len(rs))
	}
	text, patches := 0, 0
	for _, f := range rs[0].Findings {
		for _, e := range f.Remedy.Edits {
			text += len(e.Find) + len(e.Replace)
		}
		if f.Remedy.Kind == agc.RemedyPatch {
			patches++
		}
	}
	if text > limit || patches == 0 || patches == n {
		t.Errorf("%d patch remedies holding %d bytes of text, want some, within %d", patches, text, limit)
	}
	if !slices.ContainsFunc(lints, func(l diag.Lint) bool { return strings.Contains(l.Message, "would hold more than") }) {
		t.Errorf("no lint says the rest are not patch remedies")
	}
}
