package sarif

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/diag"
)

// floodLog is a log of one run of n copies of result.
func floodLog(runProps, result string, n int) []byte {
	return []byte(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"t"}},` + runProps + `"results":[` +
		strings.TrimSuffix(strings.Repeat(result+",", n), ",") + `]}]}`)
}

// checkBounded: lints is at most diag.MaxLints lints and one summary, and
// stands for want lints.
func checkBounded(t *testing.T, what string, lints []diag.Lint, want int) {
	t.Helper()
	if len(lints) > diag.MaxLints+1 {
		t.Errorf("%s: %d lints kept, want at most %d", what, len(lints), diag.MaxLints+1)
	}
	if got := diag.Count(lints); got != want {
		t.Errorf("%s: the lints stand for %d, want the true total %d", what, got, want)
	}
	if last := lints[len(lints)-1]; last.More != want-diag.MaxLints || last.File != "flood.sarif" {
		t.Errorf("%s: last lint %+v, want a summary of %d more in flood.sarif", what, last, want-diag.MaxLints)
	}
}

// TestReadLintFlood is the attack of a log whose every result draws lints:
// a result of {} draws two, and all of them were kept, some 240 bytes of
// memory for 3 bytes of input. The reader, read whole or streamed, keeps
// the first diag.MaxLints and counts the rest.
func TestReadLintFlood(t *testing.T) {
	const n = 20000
	data := floodLog("", "{}", n)
	got, err := Read(data, "flood.sarif", Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkBounded(t, "Read", got.Lints, 2*n)
	f, err := os.Create(filepath.Join(t.TempDir(), "out.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err = Read(data, "flood.sarif", Options{Out: f})
	if err != nil || !got.Written {
		t.Fatalf("Read to a file: %v, %v", got, err)
	}
	checkBounded(t, "Read to a file", got.Lints, 2*n)
}

// TestRestoreLintFlood: a run written from AGC whose every result carries
// an agc/ property that cannot be read draws one lint a result in ToAGC;
// they are bounded too.
func TestRestoreLintFlood(t *testing.T) {
	const n = 5000
	data := floodLog(`"properties":{"agc/version":"0.1"},`, `{"ruleId":"r","message":{"text":"m"},"properties":{"agc/id":"x","agc/severity":7}}`, n)
	log, lints, err := ReadLog(bytes.NewReader(data), "flood.sarif", ReadOptions{})
	if err != nil || len(lints) != 0 {
		t.Fatalf("ReadLog: %v, %v", lints, err)
	}
	_, lints = ToAGC(log, ToAGCOptions{})
	for i := range lints {
		lints[i].File = "flood.sarif"
	}
	checkBounded(t, "ToAGC", lints, n)
}
