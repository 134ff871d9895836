package validate

import (
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
)

const badAttempt = `{"agc":"0.1","gate":{"id":"g","kind":"deterministic","version":"1"},"subject":{"kind":"commit","fingerprint":"sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},"verdict":"allow","coverage":{"complete":true,"classes":[]},"attempt":{"n":"one","budget":1}}`

// TestManyRecordsPlacedInOnePass is the attack of a JSON Lines file (or an
// array) of many responses, each with a violation: each violation was
// placed by reading the file from its start to its record (LineOffset,
// then At), so n records cost O(n²). The file is read a bounded number of
// times in all, and each violation is still at its record's line.
func TestManyRecordsPlacedInOnePass(t *testing.T) {
	const n = 2000
	recs := make([]string, n)
	for i := range recs {
		recs[i] = badAttempt
	}
	for _, c := range []struct {
		name, data string
		line       func(i int) int
	}{
		{"jsonl", strings.Join(recs, "\n") + "\n", func(i int) int { return i + 1 }},
		{"array", "[\n" + strings.Join(recs, ",\n") + "\n]\n", func(i int) int { return i + 2 }},
	} {
		var vs []Violation
		var scans diag.ScanCounter
		vs = Bytes("many."+c.name, []byte(c.data), agc.Limits{Scans: &scans})
		read := scans.Bytes()
		if len(vs) != n {
			t.Fatalf("%s: %d violations, want %d: %v", c.name, len(vs), n, vs[:min(3, len(vs))])
		}
		if read > 8*int64(len(c.data)) {
			t.Errorf("%s: placing %d violations read %d bytes of a %d-byte file (%.0f times); want a few passes", c.name, n, read, len(c.data), float64(read)/float64(len(c.data)))
		}
		for i, v := range vs {
			if v.Line != c.line(i) || v.Column != strings.Index(badAttempt, `"one"`)+1 {
				t.Fatalf("%s: violation %d at %d:%d, want line %d: %s", c.name, i, v.Line, v.Column, c.line(i), v)
			}
		}
	}
}
