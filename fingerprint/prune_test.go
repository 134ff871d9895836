package fingerprint

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/fingerprint/gittest"
)

// TestPrunedWalk: a scoped walk leaves out the trees beneath which its
// scope selects nothing, and its fingerprint, count and (asked for) tree
// are those of the whole listing: when nothing is left out, when a gate's
// configuration lies in a tree it would leave out, and when a selected
// link points into one (the walk then lists the whole tree).
func TestPrunedWalk(t *testing.T) {
	r := gittest.New(t)
	r.Write("src/a.go", "package a\n", "src/deep/b.go", "package b\n", "docs/x.md", "x\n",
		"docs/sub/y.md", "y\n", "cfg/gate.yml", "g: 1\n", "other/z.txt", "z\n")
	r.Symlink("../docs/x.md", "src/link.md")
	r.Symlink("../docs/x.md", "other/link.md")
	r.Commit("tree")
	g := &Git{Dir: r.Dir}
	defer g.Close()
	all, err := g.Tree(context.Background(), mustCommit(t, g))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		patterns []string
		configs  []string
		pruned   bool // the walk leaves trees out
	}{
		{[]string{"other/*.txt"}, nil, true},
		{[]string{"other/*.txt"}, []string{"cfg/gate.yml"}, true},
		{[]string{"docs/**"}, []string{"cfg/gate.yml"}, true},
		{[]string{"src/**"}, nil, false},  // src/link.md points into docs/
		{[]string{"src/*.go"}, nil, true}, // the link is not selected
		{[]string{"**/*.md", "!docs/**"}, nil, false},
		{[]string{"src/**", "!src/link.md"}, nil, true},
		{[]string{"{src,docs}/**"}, nil, false}, // braces: not pruned
		{[]string{"nothing/**"}, nil, true},
	} {
		s := mustScope(t, tc.patterns...)
		o := Options{Rev: "HEAD", Scope: s, GateConfigs: tc.configs, Lazy: true}
		l, err := list(context.Background(), g, mustCommit(t, g), s, &pruning{scope: s, keep: tc.configs})
		if err != nil {
			t.Fatal(err)
		}
		if pruned := l.pruned && !l.selectsLink(); pruned != tc.pruned {
			t.Errorf("scope %q: pruned %v, want %v", tc.patterns, pruned, tc.pruned)
		}
		res, err := g.Compute(context.Background(), o)
		if err != nil {
			t.Fatalf("scope %q: %v", tc.patterns, err)
		}
		read := func(oid string) ([]byte, error) { return g.Blob(context.Background(), oid) }
		sel, err := Select(all, s, read)
		if err != nil {
			t.Fatal(err)
		}
		gate, err := readGate(context.Background(), g, func(p string) (Entry, bool) {
			i := slices.IndexFunc(all, func(e Entry) bool { return e.Path == p })
			if i < 0 {
				return Entry{}, false
			}
			return all[i], true
		}, o)
		if err != nil {
			t.Fatal(err)
		}
		if want := Sum(s, gate, sel); res.Fingerprint != want || res.Count() != len(sel) {
			t.Errorf("scope %q: %s of %d entries, want %s of %d", tc.patterns, res.Fingerprint, res.Count(), want, len(sel))
		}
		tr, err := res.Entries()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(tr.All, all) || !slices.Equal(tr.Selected, sel) {
			t.Errorf("scope %q: entries %d of %d, want %d of %d", tc.patterns, len(tr.Selected), len(tr.All), len(sel), len(all))
		}
	}
}

func mustCommit(t *testing.T, g *Git) string {
	t.Helper()
	c, err := g.Commit(context.Background(), "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// FuzzPrunes: a directory the scope prunes holds no path it selects, at
// any depth, as a file, a symlink or a gitlink.
func FuzzPrunes(f *testing.F) {
	for _, s := range scopeSeeds {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, p1, p2, path string) {
		s, err := ParseScope([]string{p1, p2})
		if err != nil || !validPath(path) {
			return
		}
		for i := 0; i < len(path); i++ {
			if path[i] != '/' {
				continue
			}
			if !s.prunes(strings.Split(path[:i], "/")) {
				continue
			}
			for _, mode := range []string{ModeFile, ModeSymlink, ModeGitlink} {
				if s.Selects(Entry{Path: path, Mode: mode}) {
					t.Fatalf("scope %q prunes %q, but selects the %s %q beneath it", s.Patterns(), path[:i], mode, path)
				}
			}
		}
	})
}
