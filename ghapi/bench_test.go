package ghapi

import (
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
)

func BenchmarkParsePatch(b *testing.B) {
	var patch string
	for k := 0; k < 50; k++ {
		patch += "@@ -" + itoaT(k*20+1) + ",7 +" + itoaT(k*20+1) + ",8 @@\n a\n b\n c\n-d\n+e\n+f\n g\n h\n i\n"
	}
	patch = patch[:len(patch)-1]
	b.SetBytes(int64(len(patch)))
	for b.Loop() {
		if _, err := ParsePatch(patch); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlace300 places the scenario's 300 findings over 20 files.
func BenchmarkPlace300(b *testing.B) {
	head := files{}
	diffs := map[string]*FileDiff{}
	for i := 0; i < scFiles; i++ {
		p := "pkg/f" + itoaT(i/10) + itoaT(i%10) + ".go"
		head[p] = scHead(i, false)
		hs, err := ParsePatch("@@ -1,200 +1,200 @@\n" + contextPatch(scHead(i, false)))
		if err != nil {
			b.Fatal(err)
		}
		diffs[p] = NewFileDiff(p, "modified", hs)
	}
	r := response("scan", agc.Block, scFindings(func(int) bool { return true })...)
	for b.Loop() {
		if ps := Place(r, diffs, head, FilterDiffContext); len(ps) != 300 {
			b.Fatal(len(ps))
		}
	}
}

// contextPatch makes every line of s a context line.
func contextPatch(s string) string {
	return " " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n ")
}
