package rdf

import (
	"strings"
	"testing"

	"github.com/agcgate/agc-action/diag"
)

// TestReadLinesPlacesALineOnce is the attack of one rdjsonl line that
// draws a thousand lints: each was placed by walking the line again, so a
// line of a few megabytes took minutes (found by the second read). The
// line's lints are placed in one walk.
func TestReadLinesPlacesALineOnce(t *testing.T) {
	line := `{"message":"m","suggestions":[` + strings.Repeat("1,", 20000) + `1]}`
	var scans diag.ScanCounter
	_, lints, err := readLines("many.rdjsonl", []byte(line+"\n"), &scans)
	if err != nil {
		t.Fatal(err)
	}
	read := scans.Bytes()
	if len(lints) < 100 {
		t.Fatalf("%d lints, want the line to draw many", len(lints))
	}
	if read > 4*int64(len(line)) {
		t.Errorf("%d lints of one %d-byte line read %d bytes (%.0f times the line)", len(lints), len(line), read, float64(read)/float64(len(line)))
	}
	for _, l := range lints {
		if l.More == 0 && (l.Line != 1 || l.Column == 0) {
			t.Fatalf("lint %q at %d:%d, want line 1 with a column", l.Message, l.Line, l.Column)
		}
	}
}
