package rdf

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

// randomSuggestions is a source of a few short, often repeated lines and
// an rdjson log of diagnostics in it, each with one or two suggestions at
// random ranges: repeated text, insertions, overlaps, ranges past the
// end.
func randomSuggestions(rng *rand.Rand) (src, log string) {
	words := []string{"a", "b", "ab", "a", "", "aba"}
	var sb strings.Builder
	n := rng.IntN(16)
	for range n {
		sb.WriteString(words[rng.IntN(len(words))] + "\n")
	}
	src = sb.String()
	if len(src) > 0 && rng.IntN(4) == 0 {
		src = src[:len(src)-1]
	}
	// span is a range that mostly lies in the source: within a line, to
	// the next line's start, or empty.
	span := func() (string, string) {
		l, c := 1+rng.IntN(n+1), 1+rng.IntN(2)
		start := fmt.Sprintf(`{"line":%d,"column":%d}`, l, c)
		switch rng.IntN(3) {
		case 0:
			return start, start
		case 1:
			return start, fmt.Sprintf(`{"line":%d,"column":1}`, l+1)
		}
		return start, fmt.Sprintf(`{"line":%d,"column":%d}`, l, c+rng.IntN(2))
	}
	var b strings.Builder
	b.WriteString(`{"source":{"name":"l"},"diagnostics":[`)
	for i := range 1 + rng.IntN(8) {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"message":"m%d","location":{"path":"f.txt","range":{"start":{"line":1}}},"suggestions":[`, rng.IntN(3))
		for j := range 1 + rng.IntN(2) {
			if j > 0 {
				b.WriteString(",")
			}
			start, end := span()
			fmt.Fprintf(&b, `{"range":{"start":%s,"end":%s},"text":%q}`, start, end, words[rng.IntN(len(words))])
		}
		b.WriteString("]}")
	}
	b.WriteString("]}")
	return src, b.String()
}

// TestRandomSuggestionsAsBefore: on many random logs, ToAGC makes the
// remedies and lints it made before one index of a source answered all
// its diagnostics' find texts. testdata/random-suggestions.golden was
// written by the code before (main at 7dde37b) with -update.
func TestRandomSuggestionsAsBefore(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	var out strings.Builder
	for k := range 300 {
		src, log := randomSuggestions(rng)
		res, _, err := ReadResult("r.rdjson", []byte(log))
		if err != nil {
			t.Fatal(err)
		}
		rs, lints := ToAGC(res, ToAGCOptions{FS: fstest.MapFS{"f.txt": {Data: []byte(src)}}, Input: []byte(log)})
		fmt.Fprintf(&out, "%d %q\n", k, src)
		for _, r := range rs {
			for _, f := range r.Findings {
				rj, err := json.Marshal(f.Remedy)
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&out, "%s %s\n", f.ID, rj)
			}
		}
		for _, l := range lints {
			fmt.Fprintf(&out, "%s\n", l)
		}
	}
	golden.Check(t, "testdata/random-suggestions.golden", []byte(out.String()), *update)
}
