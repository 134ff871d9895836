package fingerprint

import (
	"bytes"
	"context"
	"encoding/hex"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/fingerprint/gittest"
)

// lsTree is what `git ls-tree -r -z --full-tree` lists of commit, parsed
// as the listing was before the tree walk: the reference the walk must
// reproduce.
func lsTree(t *testing.T, dir, commit string) ([]Entry, error) {
	t.Helper()
	out, err := exec.Command("git", "-C", dir, "ls-tree", "-r", "-z", "--full-tree", commit).Output()
	if err != nil {
		return nil, err
	}
	return ParseLsTree(out)
}

// trickyRepo commits names whose byte order differs from a naive
// directory order, an executable, a symlink and a gitlink.
func trickyRepo(t *testing.T, format string) *gittest.Repo {
	t.Helper()
	gittest.Isolate(t)
	r := &gittest.Repo{T: t, Dir: t.TempDir()}
	r.Git("init", "-q", "-b", "main", "--object-format="+format)
	r.Write("foo/a.go", "a\n", "foo.bar", "dot\n", "foo-bar", "dash\n", "foo0/x", "zero\n",
		"a b/c d.txt", "space\n", "a\tb", "tab\n", "ü/é.txt", "utf-8\n", "x/y/z/deep.txt", "deep\n",
		"run.sh", "#!/bin/sh\n", "shared/config.h", "#define N 1\n", "README.md", "# r\n")
	r.Symlink("../shared/config.h", "src/config.h")
	r.Git("add", "-A")
	r.Git("update-index", "--chmod=+x", "run.sh")
	sub := strings.Repeat("7", len(r.Git("write-tree")))
	r.Git("update-index", "--add", "--cacheinfo", "160000,"+sub+",vendor/lib")
	r.Git("commit", "-q", "-m", "tricky")
	return r
}

func TestTreeWalkMatchesLsTree(t *testing.T) {
	for _, format := range []string{"sha1", "sha256"} {
		t.Run(format, func(t *testing.T) {
			r := trickyRepo(t, format)
			g := &Git{Dir: r.Dir}
			defer g.Close()
			commit, err := g.Commit(context.Background(), "HEAD")
			if err != nil {
				t.Fatal(err)
			}
			want, err := lsTree(t, r.Dir, commit)
			if err != nil {
				t.Fatal(err)
			}
			got, err := g.Tree(context.Background(), commit)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("walked tree:\n%v\ngit ls-tree:\n%v", got, want)
			}
			checkSums(t, g, want)
		})
	}
}

// TestTreeWalkManyEntries checks the walk against git ls-tree on a tree
// whose listing fills several chunks of spans and of texts, with symlinks
// and a gitlink past the first chunk.
func TestTreeWalkManyEntries(t *testing.T) {
	n := 3*spanChunk + 100
	dir := benchRepo(t, n)
	blob := gittest.Run(t, dir, "rev-parse", "main:d000/s00/f00000.go")
	gittest.Run(t, dir, "read-tree", "main")
	target := func(s string) string { return hashObject(t, dir, "blob", s) }
	for _, info := range []string{
		"120000," + target("../d000/s00/f00000.go") + ",d009/link.go",
		"120000," + target("../s01") + ",d012/s05/dir-link",
		"160000," + strings.Repeat("7", len(blob)) + ",d011/vendor",
	} {
		gittest.Run(t, dir, "update-index", "--add", "--cacheinfo", info)
	}
	tree := gittest.Run(t, dir, "write-tree")
	commit := gittest.Run(t, dir, "commit-tree", "-m", "many", tree)
	gittest.Run(t, dir, "update-ref", "refs/heads/main", commit)
	want, err := lsTree(t, dir, commit)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < n {
		t.Fatalf("git ls-tree lists %d entries, want at least %d", len(want), n)
	}
	g := &Git{Dir: dir}
	defer g.Close()
	got, err := g.Tree(context.Background(), commit)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("walked %d entries, git ls-tree %d; they differ", len(got), len(want))
	}
	for _, patterns := range [][]string{nil, {"d009/**"}, {"d012/**", "!**/s09/**"}, {"d01*/**", "!d011/**"}, {"d011/vendor/x"}} {
		s, err := ParseScope(patterns)
		if err != nil {
			t.Fatal(err)
		}
		res, err := g.Compute(context.Background(), Options{Rev: "HEAD", Scope: s})
		if err != nil {
			t.Fatalf("scope %q: %v", patterns, err)
		}
		sel, err := Select(want, s, func(oid string) ([]byte, error) { return g.Blob(context.Background(), oid) })
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Tree.Selected, sel) || res.Fingerprint != Sum(s, Gate{}, sel) {
			t.Errorf("scope %q: %d selected, fingerprint %s; Select gives %d, %s", patterns, len(res.Tree.Selected), res.Fingerprint, len(sel), Sum(s, Gate{}, sel))
		}
	}
}

// checkSums checks that Compute, which hashes the encoding where the walk
// left it, gives Sum's value for the entries it selected.
func checkSums(t *testing.T, g *Git, all []Entry) {
	t.Helper()
	scopes := [][]string{nil, {"foo*/**"}, {"**", "!foo/**"}, {"src/**"}, {"vendor/lib/include/*.h"},
		{"nothing/**"}, {"!x/**"},
		// doublestar matches "**/M/**" against a path ending in a name that
		// M matches only with its "*" empty as it likes ("0*/**" does not
		// match "0", "0*/**" matches "00"): the walk must agree.
		{"**/foo.bar*/**"}, {"!**/run.sh*/**"}, {"**/foo*/**", "!**/a.go*/**"}}
	for _, patterns := range scopes {
		s, err := ParseScope(patterns)
		if err != nil {
			t.Fatal(err)
		}
		gate := Gate{ID: "review", Version: "1", Configs: []Config{NewConfig("README.md", []byte("# r\n"))}}
		res, err := g.Compute(context.Background(), Options{Rev: "HEAD", Scope: s, GateID: gate.ID,
			GateVersion: gate.Version, GateConfigs: []string{"README.md"}})
		if err != nil {
			t.Fatalf("scope %q: %v", patterns, err)
		}
		sel, err := Select(all, s, func(oid string) ([]byte, error) { return g.Blob(context.Background(), oid) })
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Tree.Selected, sel) {
			t.Errorf("scope %q: selected %v, want %v", patterns, res.Tree.Selected, sel)
		}
		if want := Sum(s, gate, sel); res.Fingerprint != want {
			t.Errorf("scope %q: fingerprint %s, Sum gives %s", patterns, res.Fingerprint, want)
		}
		checkLazy(t, g, Options{Rev: "HEAD", Scope: s, GateID: gate.ID, GateVersion: gate.Version,
			GateConfigs: []string{"README.md"}, Lazy: true}, res, all)
	}
}

// checkLazy checks that a Lazy Compute gives the fingerprint and count of
// the eager one, makes no entry until asked, and then makes the same tree.
func checkLazy(t *testing.T, g *Git, o Options, eager *Result, all []Entry) {
	t.Helper()
	res, err := g.Compute(context.Background(), o)
	if err != nil {
		t.Fatalf("scope %q, lazy: %v", o.Scope.Patterns(), err)
	}
	if res.Fingerprint != eager.Fingerprint || res.Count() != len(eager.Tree.Selected) || res.Tree.All != nil {
		t.Errorf("scope %q, lazy: %s, %d entries (tree made: %t), want %s, %d entries, none made",
			o.Scope.Patterns(), res.Fingerprint, res.Count(), res.Tree.All != nil, eager.Fingerprint, len(eager.Tree.Selected))
	}
	tr, err := res.Entries()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tr.All, all) || !slices.Equal(tr.Selected, eager.Tree.Selected) || res.Count() != len(tr.Selected) {
		t.Errorf("scope %q, lazy: made %d entries, %d selected; want %d, %d", o.Scope.Patterns(), len(tr.All), len(tr.Selected), len(all), len(eager.Tree.Selected))
	}
}

// TestTreeWalkOddTrees writes tree objects git itself would not write
// (unsorted, duplicate names, old modes, bad names) and checks that the
// walk agrees with git ls-tree: the same entries, or an error for both.
func TestTreeWalkOddTrees(t *testing.T) {
	r := gittest.New(t)
	blob := r.Git("hash-object", "-w", "--stdin")
	rawBlob, _ := hex.DecodeString(blob)
	rec := func(mode, name string) string { return mode + " " + name + "\x00" + string(rawBlob) }
	rawSub, _ := hex.DecodeString(hashTree(t, r.Dir, rec("100644", "x")))
	dir := func(name string) string { return "40000 " + name + "\x00" + string(rawSub) }
	tests := map[string]string{
		"unsorted":       rec("100644", "b") + rec("100644", "a"),
		"duplicate":      rec("100644", "a") + rec("100644", "a"),
		"old modes":      rec("100664", "a") + rec("100775", "b") + rec("0100644", "c") + rec("644", "d"),
		"dot":            rec("100644", "."),
		"dot dot":        rec("100644", ".."),
		"slash":          rec("100644", "a/b"),
		"empty slash":    rec("100644", "a//b"),
		"empty":          "",
		"truncated":      rec("100644", "a")[:10],
		"bad mode":       rec("10x644", "a"),
		"no name":        rec("100644", ""),
		"file and dir":   rec("100644", "a") + dir("a"),
		"dir and file":   dir("a") + rec("100644", "a"),
		"dir unsorted":   dir("b") + dir("a") + rec("100644", "a.c"),
		"tree is a blob": rec("40000", "a"),
	}
	for name, tree := range tests {
		t.Run(name, func(t *testing.T) {
			id := hashTree(t, r.Dir, tree)
			commit := r.Git("commit-tree", "-m", name, id)
			want, werr := lsTree(t, r.Dir, commit)
			g := &Git{Dir: r.Dir}
			defer g.Close()
			got, gerr := g.Tree(context.Background(), commit)
			if (werr == nil) != (gerr == nil) || !slices.Equal(got, want) {
				t.Errorf("walk: %v, %v\ngit ls-tree: %v, %v", got, gerr, want, werr)
			}
		})
	}
}

func hashTree(t *testing.T, dir, content string) string {
	t.Helper()
	return hashObject(t, dir, "tree", content)
}

// hashObject writes content into dir's repository as an object of type
// typ, as it is (--literally: a tree may be malformed), and returns its id.
func hashObject(t *testing.T, dir, typ, content string) string {
	t.Helper()
	c := exec.Command("git", "-C", dir, "hash-object", "-t", typ, "-w", "--literally", "--stdin")
	c.Stdin = strings.NewReader(content)
	out, err := c.Output()
	if err != nil {
		t.Fatalf("hash-object: %v", err)
	}
	return strings.TrimSpace(string(out))
}

func TestTreeWalkErrors(t *testing.T) {
	r := gittest.New(t)
	r.Write("a.txt", "a\n")
	r.Commit("one")
	g := &Git{Dir: r.Dir}
	defer g.Close()
	ctx := context.Background()
	for _, rev := range []string{"nosuchrev", "HEAD:a.txt", "-x", "a\nb", ""} {
		if _, err := g.Commit(ctx, rev); err == nil {
			t.Errorf("Commit(%q): no error", rev)
		}
	}
	if _, err := g.Tree(ctx, "0123456789012345678901234567890123456789"); err == nil {
		t.Errorf("Tree of a missing commit: no error")
	}
	if _, err := g.Commit(ctx, "HEAD"); err != nil {
		t.Errorf("after errors: %v", err)
	}
	if _, err := (&Git{Dir: t.TempDir()}).Commit(ctx, "HEAD"); err == nil || !strings.Contains(err.Error(), "not a git repository") {
		t.Errorf("outside a repository: %v", err)
	}
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
			if !strings.HasPrefix(e.Path, prefix) || checkEntry(Entry{Path: strings.TrimPrefix(e.Path, prefix), Mode: e.Mode, Type: e.Type, OID: e.OID}) != nil {
				t.Fatalf("invalid entry %v", e)
			}
			var want bytes.Buffer
			enc := &encoder{w: &want, buf: make([]byte, 0, 64)}
			enc.entry(e)
			enc.flush()
			if got := n.text[sp.start:sp.end]; !bytes.Equal(got, want.Bytes()) {
				t.Fatalf("entry %v: kept %q, encoding %q", e, got, want.Bytes())
			}
		}
	})
}
