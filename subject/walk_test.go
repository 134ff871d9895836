package subject

import (
	"bytes"
	"context"
	"encoding/hex"
	"slices"
	"strings"
	"testing"
)

// TestWalkOddTrees walks tree objects git itself would not write
// (unsorted, duplicate names, old modes, bad names): the entries in path
// order, with the modes `git ls-tree` prints for them, or an error.
func TestWalkOddTrees(t *testing.T) {
	m := newRepo(t, "x", ModeFile, "x")
	blob := m.put(typeBlob, []byte("x"))
	rawBlob, _ := hex.DecodeString(blob)
	rec := func(mode, name string) string { return mode + " " + name + "\x00" + string(rawBlob) }
	rawSub, _ := hex.DecodeString(m.root)
	dir := func(name string) string { return "40000 " + name + "\x00" + string(rawSub) }
	for _, tc := range []struct {
		name, tree string
		want       []string // mode and path of each entry
		err        string
	}{
		{"unsorted", rec("100644", "b") + rec("100644", "a"), []string{"100644 a", "100644 b"}, ""},
		{"duplicate", rec("100644", "a") + rec("100644", "a"), nil, `path "a" listed twice`},
		{"old modes", rec("100664", "a") + rec("100775", "b") + rec("0100644", "c") + rec("644", "d"),
			[]string{"100644 a", "100755 b", "100644 c", "160000 d"}, ""},
		{"dot", rec("100644", "."), nil, "not a clean path component"},
		{"dot dot", rec("100644", ".."), nil, "not a clean path component"},
		{"slash", rec("100644", "a/b"), []string{"100644 a/b"}, ""},
		{"empty slash", rec("100644", "a//b"), nil, "not a clean path component"},
		{"empty", "", nil, ""},
		{"truncated", rec("100644", "a")[:10], nil, "truncated entry"},
		{"bad mode", rec("10x644", "a"), nil, "malformed mode"},
		{"no name", rec("100644", ""), nil, "empty name"},
		{"file and dir", rec("100644", "a") + dir("a"), []string{"100644 a", "100644 a/x"}, ""},
		{"dir and file", dir("a") + rec("100644", "a"), []string{"100644 a", "100644 a/x"}, ""},
		{"dir unsorted", dir("b") + dir("a") + rec("100644", "a.c"), []string{"100644 a.c", "100644 a/x", "100644 b/x"}, ""},
		{"tree is a blob", rec("40000", "a"), nil, "is a blob"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m.root = m.put("tree", []byte(tc.tree))
			res, err := Compute(context.Background(), m, Options{Rev: "HEAD"})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range res.Tree.All {
				got = append(got, e.Mode+" "+e.Path)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("listed %q, want %q", got, tc.want)
			}
		})
	}
}

// TestPrunedWalk: a lazy scoped walk leaves out the trees beneath which
// its scope selects nothing, and its fingerprint, count and (asked for)
// tree are those of the walk of the whole tree: when nothing is left out,
// when a gate's configuration lies in a tree it would leave out, and when
// a selected link points into one (the walk then lists the whole tree).
func TestPrunedWalk(t *testing.T) {
	m := newRepo(t, "src/a.go", ModeFile, "package a\n", "src/deep/b.go", ModeFile, "package b\n",
		"docs/x.md", ModeFile, "x\n", "docs/sub/y.md", ModeFile, "y\n", "cfg/gate.yml", ModeFile, "g: 1\n",
		"other/z.txt", ModeFile, "z\n", "src/link.md", ModeSymlink, "../docs/x.md", "other/link.md", ModeSymlink, "../docs/x.md")
	ctx := context.Background()
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
		l, err := list(ctx, m, memCommit, s, &pruning{scope: s, keep: tc.configs})
		if err != nil {
			t.Fatal(err)
		}
		if pruned := l.pruned && !l.selectsLink(); pruned != tc.pruned {
			t.Errorf("scope %q: pruned %v, want %v", tc.patterns, pruned, tc.pruned)
		}
		o := Options{Rev: "HEAD", Scope: s, GateID: "g", GateConfigs: tc.configs}
		eager, err := Compute(ctx, m, o)
		if err != nil {
			t.Fatalf("scope %q: %v", tc.patterns, err)
		}
		o.Lazy = true
		lazy, err := Compute(ctx, m, o)
		if err != nil {
			t.Fatalf("scope %q, lazy: %v", tc.patterns, err)
		}
		if lazy.Fingerprint != eager.Fingerprint || lazy.Count() != len(eager.Tree.Selected) || lazy.Tree.All != nil {
			t.Errorf("scope %q, lazy: %s of %d entries (tree made: %t), want %s of %d, none made",
				tc.patterns, lazy.Fingerprint, lazy.Count(), lazy.Tree.All != nil, eager.Fingerprint, len(eager.Tree.Selected))
		}
		tr, err := lazy.Entries()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(tr.All, eager.Tree.All) || !slices.Equal(tr.Selected, eager.Tree.Selected) {
			t.Errorf("scope %q, lazy: entries %d of %d, want %d of %d", tc.patterns, len(tr.Selected), len(tr.All), len(eager.Tree.Selected), len(eager.Tree.All))
		}
	}
}

// FuzzPrunes: a directory the scope prunes holds no path it selects, at
// any depth, as a file, a symlink or a gitlink.
func FuzzPrunes(f *testing.F) {
	fuzzScopes(f, func(t *testing.T, s Scope, path string) {
		for i := 0; i < len(path); i++ {
			if path[i] != '/' || !s.prunes(strings.Split(path[:i], "/")) {
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

// FuzzParseTree checks that parsing any tree object neither panics nor
// lists an invalid entry, and that the bytes it keeps for each entry are
// the entry's encoding.
func FuzzParseTree(f *testing.F) {
	raw := bytes.Repeat([]byte{0xab}, 20)
	for _, seed := range []string{
		"100644 a.go\x00" + string(raw) + "40000 src\x00" + string(raw),
		"120000 link\x00" + string(raw) + "160000 vendor\x00" + string(raw) + "100755 run\x00" + string(raw),
		"100664 x\x00" + string(raw[:5]),
	} {
		f.Add([]byte(seed), "", false)
		f.Add([]byte(seed), "dir/", true)
	}
	f.Fuzz(func(t *testing.T, data []byte, prefix string, sha256 bool) {
		rawLen := 20
		if sha256 {
			rawLen = 32
		}
		n := &treeNode{prefix: prefix}
		if err := parseTree(n, data, rawLen, nil); err != nil {
			return
		}
		for _, r := range n.recs {
			sp := n.span(r, 2*rawLen)
			e := sp.entry(n.text, 2*rawLen)
			name, ok := strings.CutPrefix(e.Path, prefix)
			kind := slices.Index(kinds[:], [2]string{e.Mode, e.Type})
			if !ok || !validPath(name) || kind < 0 || !ValidOID(e.OID) || len(e.OID) != 2*rawLen {
				t.Fatalf("invalid entry %v", e)
			}
			var want bytes.Buffer
			enc := &encoder{w: &want, buf: make([]byte, 0, 64)}
			for _, f := range []string{e.Path, e.Mode, e.Type, e.OID} {
				enc.field(f)
			}
			enc.flush()
			if got := n.text[sp.start:sp.end]; !bytes.Equal(got, want.Bytes()) {
				t.Fatalf("entry %v: kept %q, encoding %q", e, got, want.Bytes())
			}
		}
	})
}
