package udiff

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agcgate/agc-action/internal/golden"
	"github.com/go-json-experiment/json"
)

var update = flag.Bool("update", false, "rewrite golden files")

// randomDiff is a file of a few short, often repeated lines (sometimes
// without a final line break) and hunks of it at random lines, whose
// context and old lines are the file's own or not, often overlapping and
// inserting past the end.
func randomDiff(rng *rand.Rand) (string, []Hunk) {
	words := []string{"a", "b", "ab", "a", ""}
	var lines []string
	for range rng.IntN(20) {
		lines = append(lines, words[rng.IntN(len(words))]+"\n")
	}
	file := strings.Join(lines, "")
	if len(file) > 0 && rng.IntN(4) == 0 {
		file = file[:len(file)-1]
	}
	var hunks []Hunk
	for range 1 + rng.IntN(6) {
		h := Hunk{OldStart: rng.IntN(len(lines) + 3), Line: 3 + len(hunks)}
		for range rng.IntN(6) {
			text := words[rng.IntN(len(words))] + "\n"
			if l := h.OldStart - 1 + h.OldLines; l >= 0 && l < len(lines) && rng.IntN(3) > 0 {
				text = lines[l] // the file's own line
			}
			op := " -+"[rng.IntN(3)]
			if op != '+' {
				h.OldLines++
			}
			h.Lines = append(h.Lines, Line{Op: op, Text: text})
		}
		hunks = append(hunks, h)
	}
	return file, hunks
}

// TestRandomDiffsAsBefore: on many random diffs, ToAGC makes the findings
// and lints it made before the file's lines and finds were found once for
// all hunks. testdata/random.golden was written by the code before
// (main at 7dde37b) with -update.
func TestRandomDiffsAsBefore(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	var out strings.Builder
	for k := range 250 {
		file, hunks := randomDiff(rng)
		fsys := fstest.MapFS{"f.txt": {Data: []byte(file)}}
		r, lints := ToAGC("in.diff", []File{{Path: "f.txt", Old: "f.txt", Hunks: hunks, Line: 2}}, ToAGCOptions{FS: fsys, Gate: "g", Input: []byte(file)})
		fmt.Fprintf(&out, "%d %q %s\n", k, file, r.Verdict)
		for _, f := range r.Findings {
			rj, err := json.Marshal(f.Remedy)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&out, "%s %s %q %s\n", f.ID, f.Severity, f.What, rj)
		}
		for _, l := range lints {
			fmt.Fprintf(&out, "%s\n", l)
		}
	}
	golden.Check(t, "testdata/random.golden", []byte(out.String()), *update)
}
