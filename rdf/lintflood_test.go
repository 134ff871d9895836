package rdf

import (
	"strings"
	"testing"

	"github.com/agcgate/agc-action/diag"
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
