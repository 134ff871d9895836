package deliver

import (
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/review"
)

// BenchmarkPlace300 places the scenario's 300 findings over 20 files.
func BenchmarkPlace300(b *testing.B) {
	head := files{}
	diffs := map[string]*review.FileDiff{}
	for i := 0; i < scFiles; i++ {
		p := "pkg/f" + itoaT(i/10) + itoaT(i%10) + ".go"
		head[p] = scHead(i, false)
		hs, err := review.ParsePatch("@@ -1,200 +1,200 @@\n" + contextPatch(scHead(i, false)))
		if err != nil {
			b.Fatal(err)
		}
		diffs[p] = review.NewFileDiff(p, "modified", hs)
	}
	r := response("scan", agc.Block, scFindings(func(int) bool { return true })...)
	for b.Loop() {
		if ps := review.Place(r, diffs, head, review.FilterDiffContext); len(ps) != 300 {
			b.Fatal(len(ps))
		}
	}
}

// contextPatch makes every line of s a context line.
func contextPatch(s string) string {
	return " " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n ")
}
