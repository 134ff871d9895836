package review

import (
	"testing"
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
