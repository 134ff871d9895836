package udiff

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
)

// manyHunks is a file of n lines, each once ("v00001"), and a diff of
// one hunk for every other line of it: a change with a line of context
// each side when k%3 is 0, an insertion without context when it is 1,
// and a change whose old lines are not where the header says (so they
// are looked for in the whole file) when it is 2.
func manyHunks(n int) (file, diff string) {
	var f, d strings.Builder
	for i := range n {
		fmt.Fprintf(&f, "v%05d\n", i+1)
	}
	d.WriteString("--- big.txt\n+++ big.txt\n")
	for k, l := 0, 2; l < n; k, l = k+1, l+2 {
		switch k % 3 {
		case 0:
			fmt.Fprintf(&d, "@@ -%d,3 +%d,3 @@\n v%05d\n-v%05d\n+w%05d\n v%05d\n", l-1, l-1, l-1, l, l, l+1)
		case 1:
			fmt.Fprintf(&d, "@@ -%d,0 +%d @@\n+new\n", l, l+1)
		case 2:
			fmt.Fprintf(&d, "@@ -%d +%d @@\n-v%05d\n+w%05d\n", l+1, l+1, l, l)
		}
	}
	return f.String(), d.String()
}

// TestHunksMadeInOnePass is the attack of a diff with many hunks of one
// large file: each hunk's line was found by counting the file's lines from
// its start, its old lines looked for and its find text made unique by
// reading the whole file, O(hunks × file). The file's hunk lines are now
// found in one pass (diag.LineOffsets) and the finds answered by one
// index of the file (textedit.Index).
func TestHunksMadeInOnePass(t *testing.T) {
	const n = 8000
	file, diff := manyHunks(n)
	files, err := Parse("many.diff", []byte(diff))
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{"big.txt": {Data: []byte(file)}}
	var r *agc.Response
	var lints []diag.Lint
	var lines, finds diag.ScanCounter
	r, lints = ToAGC("many.diff", files, ToAGCOptions{FS: fsys, Gate: "fmt", Input: []byte(diff), lineScans: &lines, findScans: &finds})
	placed, edits := lines.Bytes(), finds.Bytes()
	if placed > 2*int64(len(file)) {
		t.Errorf("%d hunks: placing read %d bytes of a %d-byte file (%.0f times)", len(files[0].Hunks), placed, len(file), float64(placed)/float64(len(file)))
	}
	if limit := 8*int64(len(file)) + int64(len(diff)); edits > limit {
		t.Errorf("%d hunks: making edits read %d bytes of a %d-byte file (%.0f times)", len(files[0].Hunks), edits, len(file), float64(edits)/float64(len(file)))
	}
	if len(r.Findings) != len(files[0].Hunks) {
		t.Fatalf("%d findings of %d hunks", len(r.Findings), len(files[0].Hunks))
	}
	for i, f := range r.Findings {
		if f.Remedy.Kind != agc.RemedyPatch {
			t.Fatalf("finding %d: %+v", i, f)
		}
	}
	if len(lints) != diag.MaxLints+1 || diag.Count(lints) != len(files[0].Hunks)/3 {
		t.Errorf("%d lints standing for %d, want %d for %d", len(lints), diag.Count(lints), diag.MaxLints+1, len(files[0].Hunks)/3)
	}
}

// TestHunkTextBounded: the patch remedies of one diff hold at most
// textedit.MaxEditText of text, as a hunk's context is widened to make
// its find text unique, so many small hunks could make far more text than
// the diff holds (second read: 2,000 hunks of 14 bytes made 12.8 MB).
// Past the bound a hunk's remedy is a delegate, with a lint.
func TestHunkTextBounded(t *testing.T) {
	const limit = 2 << 10
	file, diff := manyHunks(2000)
	files, err := Parse("many.diff", []byte(diff))
	if err != nil {
		t.Fatal(err)
	}
	r, lints := ToAGC("many.diff", files, ToAGCOptions{FS: fstest.MapFS{"big.txt": {Data: []byte(file)}}, Gate: "fmt", Input: []byte(diff), maxEditText: limit})
	text, patches := 0, 0
	for _, f := range r.Findings {
		if f.Remedy.Kind == agc.RemedyPatch {
			patches++
		}
		for _, e := range f.Remedy.Edits {
			text += len(e.Find) + len(e.Replace)
		}
	}
	if text > limit || patches == 0 || patches == len(r.Findings) {
		t.Errorf("%d of %d hunks patches, holding %d bytes of text; want some, within %d", patches, len(r.Findings), text, limit)
	}
	if !strings.Contains(fmt.Sprint(lints), "would hold more than") {
		t.Errorf("no lint says a hunk's remedy is not a patch for the bound")
	}
}
