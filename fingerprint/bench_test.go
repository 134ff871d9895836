package fingerprint

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"testing"
)

// lsTreeOutput generates `git ls-tree -r -z` output for n files laid out
// as the benchmark script lays them out: dNNN/sNN/fNNNNN.go.
func lsTreeOutput(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		h := sha1.Sum(fmt.Appendf(nil, "%d", i))
		mode := ModeFile
		if i%1000 == 7 {
			mode = ModeExec
		}
		fmt.Fprintf(&b, "%s blob %s\td%03d/s%02d/f%05d.go\x00", mode, hex.EncodeToString(h[:]), i/1000, i/100%10, i)
	}
	return b.Bytes()
}

// BenchmarkFingerprint measures the pure part on 100,000 entries: parsing
// the listing, selecting with a scope, encoding and hashing.
func BenchmarkFingerprint(b *testing.B) {
	out := lsTreeOutput(100_000)
	scopes := map[string][]string{
		"whole":  nil,
		"scoped": {"d0[0-4]*/**", "!**/s09/**", "d09*/s0?/*.go"},
	}
	for name, patterns := range scopes {
		b.Run(name, func(b *testing.B) {
			s, err := ParseScope(patterns)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(out)))
			for b.Loop() {
				es, err := ParseLsTree(out)
				if err != nil {
					b.Fatal(err)
				}
				sel, err := Select(es, s, nil)
				if err != nil {
					b.Fatal(err)
				}
				Sum(s, Gate{}, sel)
			}
		})
	}
}
