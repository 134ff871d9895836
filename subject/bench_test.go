package subject

import (
	"context"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/fingerprint/gittest"
)

// benchTree is the benchmarks' tree of n files (gittest.BenchPath) in
// memory.
func benchTree(b testing.TB, n int) *memRepo {
	spec := make([]string, 0, 3*n)
	for i := range n {
		spec = append(spec, gittest.BenchPath(i), gittest.BenchMode(i), gittest.BenchContent(i))
	}
	return newRepo(b, spec...)
}

// BenchmarkFingerprint measures the pure part on 100,000 entries, as
// Compute runs it without git: parsing the tree objects, listing them,
// selecting with a scope, hashing, and making the entries.
// (fingerprint's BenchmarkGitCompute measures it with git.)
func BenchmarkFingerprint(b *testing.B) {
	m := benchTree(b, 100_000)
	scopes := map[string][]string{
		"whole":  nil,
		"scoped": {"d0[0-4]*/**", "!**/s09/**", "d09*/s0?/*.go"},
	}
	for _, bs := range gittest.BenchScopes {
		scopes[bs.Name] = bs.Patterns
	}
	for name, patterns := range scopes {
		b.Run(name, func(b *testing.B) {
			s := mustScope(b, patterns...)
			for b.Loop() {
				if _, err := Compute(context.Background(), m, Options{Rev: "HEAD", Scope: s}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDirScope measures what the walk spends deciding a scope: the
// scope's decisions for each directory of the 100,000 files' tree and
// then for each entry (ns/op is for the whole tree; ns/entry, each
// entry's share), without git, parsing or hashing.
func BenchmarkDirScope(b *testing.B) {
	es := make([]Entry, 100_000)
	for i := range es {
		es[i] = Entry{Path: gittest.BenchPath(i), Mode: gittest.BenchMode(i), Type: typeBlob}
	}
	for _, bs := range gittest.BenchScopes {
		b.Run(bs.Name, func(b *testing.B) {
			s := mustScope(b, bs.Patterns...)
			n := 0
			for b.Loop() {
				prefix, d := "", s.forDir("")
				for _, e := range es {
					if !strings.HasPrefix(e.Path, prefix) || strings.IndexByte(e.Path[len(prefix):], '/') >= 0 {
						prefix = e.Path[:strings.LastIndexByte(e.Path, '/')+1]
						d = s.forDir(prefix)
					}
					if d.selects(e, e.Path[len(prefix):]) {
						n++
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(es)), "ns/entry")
			if n == 0 {
				b.Fatal("selected nothing")
			}
		})
	}
}
