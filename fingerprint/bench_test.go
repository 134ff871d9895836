package fingerprint

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/fingerprint/gittest"
)

// lsTreeOutput generates `git ls-tree -r -z` output for n files laid out
// as the benchmark script lays them out: dNNN/sNN/fNNNNN.go, every tenth
// a test, fNNNNN_test.go.
func lsTreeOutput(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		h := sha1.Sum(fmt.Appendf(nil, "%d", i))
		mode := ModeFile
		if i%1000 == 7 {
			mode = ModeExec
		}
		fmt.Fprintf(&b, "%s blob %s\t%s\x00", mode, hex.EncodeToString(h[:]), benchPath(i))
	}
	return b.Bytes()
}

// benchPath is the path of file i of the benchmarks' trees.
func benchPath(i int) string {
	test := ""
	if i%10 == 9 {
		test = "_test"
	}
	return fmt.Sprintf("d%03d/s%02d/f%05d%s.go", i/1000, i/100%10, i, test)
}

// benchScopes are the scopes of the shapes on the benchmarks'
// trees, whose every top directory dNNN stands for a repository's src/:
// "d0*" selects them all, as "src" would the code of a repository. The
// script times the same scopes as commands.
var benchScopes = []struct {
	name     string
	patterns []string
}{
	{"src", []string{"d0*/**"}},
	{"src-no-tests", []string{"d0*/**", "!**/*_test.go"}},
	{"src-go", []string{"d0*/**/*.go"}},
	{"name", []string{"**/f04242.go"}},
	{"dir-name", []string{"d0*/**/f04242.go"}},
	{"ext", []string{"**/*.go"}},
}

// BenchmarkFingerprint measures the pure part on 100,000 entries: parsing
// the listing, selecting with a scope, encoding and hashing.
func BenchmarkFingerprint(b *testing.B) {
	out := lsTreeOutput(100_000)
	scopes := map[string][]string{
		"whole":  nil,
		"scoped": {"d0[0-4]*/**", "!**/s09/**", "d09*/s0?/*.go"},
	}
	for _, bs := range benchScopes {
		scopes[bs.name] = bs.patterns
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

// BenchmarkGitCompute measures Compute end to end on a real repository of
// 100,000 files (made with one git fast-import): resolving the commit,
// reading its trees from git cat-file, parsing, selecting, hashing. scripts/bench-fingerprint.sh
// compares the built command with git ls-tree alone.
//
// AGC_BENCH_REPO names a repository to measure instead (the one
// scripts/bench-fingerprint.sh makes, to put this beside git ls-tree).
func BenchmarkGitCompute(b *testing.B) {
	dir := os.Getenv("AGC_BENCH_REPO")
	if dir == "" {
		dir = benchRepo(b, 100_000)
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
	for _, bs := range benchScopes {
		benches = append(benches, bench{bs.name + "-lazy", bs.patterns, true})
	}
	for _, bm := range benches {
		b.Run(bm.name, func(b *testing.B) {
			s, err := ParseScope(bm.patterns)
			if err != nil {
				b.Fatal(err)
			}
			g := &Git{Dir: dir}
			defer g.Close()
			for b.Loop() {
				if _, err := g.Compute(context.Background(), Options{Rev: "HEAD", Scope: s, Lazy: bm.lazy}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchRepo makes a repository of n files laid out as lsTreeOutput does.
func benchRepo(b testing.TB, n int) string {
	gittest.Isolate(b)
	dir := b.TempDir()
	gittest.Run(b, dir, "init", "-q", "-b", "main")
	var in bytes.Buffer
	for i := range n {
		c := fmt.Sprintf("package p%d // file %d\n", i%97, i)
		fmt.Fprintf(&in, "blob\nmark :%d\ndata %d\n%s\n", i+1, len(c), c)
	}
	fmt.Fprintf(&in, "commit refs/heads/main\ncommitter Bench <bench@example.invalid> 1767225600 +0000\ndata 6\nbench\n")
	for i := range n {
		mode := ModeFile
		if i%1000 == 7 {
			mode = ModeExec
		}
		fmt.Fprintf(&in, "M %s :%d %s\n", mode, i+1, benchPath(i))
	}
	c := exec.Command("git", "-C", dir, "fast-import", "--quiet")
	c.Stdin = &in
	if out, err := c.CombinedOutput(); err != nil {
		b.Fatalf("git fast-import: %v\n%s", err, out)
	}
	return dir
}

// BenchmarkDirScope measures what the walk spends deciding a scope: the
// scope's decisions for each directory of the 100,000 files' tree and
// then for each entry (ns/op is for the whole tree; ns/entry, each
// entry's share), without git, parsing or hashing.
func BenchmarkDirScope(b *testing.B) {
	es, err := ParseLsTree(lsTreeOutput(100_000))
	if err != nil {
		b.Fatal(err)
	}
	for _, bs := range benchScopes {
		b.Run(bs.name, func(b *testing.B) {
			s, err := ParseScope(bs.patterns)
			if err != nil {
				b.Fatal(err)
			}
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
