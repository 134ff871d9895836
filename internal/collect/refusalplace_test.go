package collect

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/diag"
	"github.com/agcgate/agc-action/formats"
	"github.com/agcgate/agc-action/validate"
)

const okAnswer = `{"agc":"0.1","gate":{"id":"g","kind":"deterministic","version":"1"},"subject":{"kind":"commit","fingerprint":"sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},"verdict":"allow","coverage":{"complete":true,"classes":[]},"attempt":{"n":1,"budget":1}}`

// TestRefusalsPlacedInOnePass is the attack of an input whose every answer
// is refused: the same gate answering n times in a JSON Lines file, an
// array, or a SARIF log of n runs of one tool. Each refusal was placed on
// its own, reading the file from its start (and a SARIF log from the
// disk) for every one: O(n²). They are placed when every input is read,
// one read of each file for all of its refusals, each at its answer's
// gate id.
func TestRefusalsPlacedInOnePass(t *testing.T) {
	const n = 1000
	recs := make([]string, n)
	for i := range recs {
		recs[i] = okAnswer
	}
	col := strings.Index(okAnswer, `{"id"`) + len(`{"id":`) + 1
	for _, tc := range []struct {
		name, data string
		line       func(i int) int
	}{
		{"many.jsonl", strings.Join(recs, "\n") + "\n", func(i int) int { return i + 1 }},
		{"many.json", "[\n" + strings.Join(recs, ",\n") + "\n]\n", func(i int) int { return i + 2 }},
	} {
		c := New(nil)
		var scans diag.ScanCounter
		c.scans = &scans
		c.AddAGC(tc.name, []byte(tc.data), "")
		c.PlaceRefusals()
		read := scans.Bytes()
		checkRefusals(t, tc.name, c.Vs, n-1, func(i int, p diag.Place) bool { return p.Line == tc.line(i+1) && p.Column == col })
		if read > 10*int64(len(tc.data)) {
			t.Errorf("%s: %d refusals read %d bytes of a %d-byte file (%.0f times)", tc.name, n-1, read, len(tc.data), float64(read)/float64(len(tc.data)))
		}
	}

	runs := make([]string, n)
	for i := range runs {
		runs[i] = `{"tool":{"driver":{"name":"t"}},"results":[]}`
	}
	data := []byte(`{"version":"2.1.0","runs":[` + "\n" + strings.Join(runs, ",\n") + "\n]}\n")
	c := New(nil)
	reads := 0
	if _, err := c.SARIF("many.sarif", data, func() ([]byte, error) { reads++; return data, nil }, "", formats.ReadOptions{Root: t.TempDir()}); err != nil || len(c.runs) != n {
		t.Fatalf("SARIF: %d runs, %v", len(c.runs), err)
	}
	var scans diag.ScanCounter
	c.scans = &scans
	c.AddUnpairedRuns()
	c.PlaceRefusals()
	read := scans.Bytes()
	checkRefusals(t, "many.sarif", c.Vs, n-1, func(i int, p diag.Place) bool {
		return p.Line == i+3 && p.Pointer == fmt.Sprintf("/runs/%d/tool/driver/name", i+1)
	})
	if reads != 1 || read > 2*int64(len(data)) {
		t.Errorf("many.sarif: %d refusals read the log %d times, %d bytes of %d", n-1, reads, read, len(data))
	}
}

func checkRefusals(t *testing.T, name string, vs []validate.Violation, want int, at func(i int, p diag.Place) bool) {
	t.Helper()
	var refused []validate.Violation
	for _, v := range vs {
		if strings.Contains(v.Message, "already answered") {
			refused = append(refused, v)
		}
	}
	if len(refused) != want {
		t.Fatalf("%s: %d refusals, want %d", name, len(refused), want)
	}
	for i, v := range refused {
		if v.Rule != validate.ChainOrder || !at(i, v.Place) {
			t.Fatalf("%s: refusal %d is %s", name, i, v)
		}
	}
}
