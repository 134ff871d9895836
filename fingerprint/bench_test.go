package fingerprint

import (
	"context"
	"os"
	"testing"

	"github.com/agcgate/agc-action/fingerprint/gittest"
	"github.com/agcgate/agc-action/subject"
)

// BenchmarkGitCompute measures subject.Compute end to end on a real
// repository of 100,000 files (gittest.BenchRepo): resolving the commit,
// reading its trees from git cat-file, parsing, selecting, hashing.
// scripts/bench-fingerprint.sh compares the built command with git
// ls-tree alone.
//
// AGC_BENCH_REPO names a repository to measure instead (the one
// scripts/bench-fingerprint.sh makes, to put this beside git ls-tree).
func BenchmarkGitCompute(b *testing.B) {
	dir := os.Getenv("AGC_BENCH_REPO")
	if dir == "" {
		dir = gittest.BenchRepo(b, 100_000)
	}
	scoped := []string{"d0[0-4]*/**", "!**/s09/**", "d09*/s0?/*.go"}
	type bench struct {
		name     string
		patterns []string
		lazy     bool
	}
	benches := []bench{
		{"whole", nil, false},
		{"scoped", scoped, false},
		// What agc-sarif fingerprint, the binding and the carry compute:
		// no Tree, and a scoped walk reads only the trees it can reach.
		{"whole-lazy", nil, true},
		{"scoped-lazy", scoped, true},
	}
	for _, bs := range gittest.BenchScopes {
		benches = append(benches, bench{bs.Name + "-lazy", bs.Patterns, true})
	}
	for _, bm := range benches {
		b.Run(bm.name, func(b *testing.B) {
			s, err := subject.ParseScope(bm.patterns)
			if err != nil {
				b.Fatal(err)
			}
			g := &Git{Dir: dir}
			defer g.Close()
			for b.Loop() {
				if _, err := subject.Compute(context.Background(), g, subject.Options{Rev: "HEAD", Scope: s, Lazy: bm.lazy}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
