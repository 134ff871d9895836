package fingerprint

import (
	"context"
	"flag"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/fingerprint/gittest"
	"github.com/agcgate/agc-action/internal/golden"
	"github.com/agcgate/agc-action/subject"
)

var update = flag.Bool("update", false, "rewrite golden files")

// lsTree is what `git ls-tree -r -z --full-tree` lists of commit: the
// entries the walk must list, as git lists them.
func lsTree(t *testing.T, dir, commit string) []subject.Entry {
	t.Helper()
	out, err := exec.Command("git", "-C", dir, "ls-tree", "-r", "-z", "--full-tree", commit).Output()
	if err != nil {
		t.Fatal(err)
	}
	var es []subject.Entry
	for rec := range strings.SplitSeq(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		meta, path, _ := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		es = append(es, subject.Entry{Path: path, Mode: f[0], Type: f[1], OID: f[2]})
	}
	return es
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

// TestTreeWalkMatchesLsTree: the walk lists what git ls-tree lists, and
// selects and hashes for each scope what the golden file says (the value
// of the earlier listing, parsed from git ls-tree, and its selection),
// lazily or not.
func TestTreeWalkMatchesLsTree(t *testing.T) {
	for _, format := range []string{"sha1", "sha256"} {
		t.Run(format, func(t *testing.T) {
			r := trickyRepo(t, format)
			g := &Git{Dir: r.Dir}
			defer g.Close()
			res := compute(t, g, subject.Options{Rev: "HEAD"})
			if want := lsTree(t, r.Dir, res.Commit); !slices.Equal(res.Tree.All, want) {
				t.Errorf("walked tree:\n%v\ngit ls-tree:\n%v", res.Tree.All, want)
			}
			scopes := [][]string{nil, {"foo*/**"}, {"**", "!foo/**"}, {"src/**"}, {"vendor/lib/include/*.h"},
				{"nothing/**"}, {"!x/**"},
				// doublestar matches "**/M/**" against a path ending in a name
				// that M matches only with its "*" empty as it likes ("0*/**"
				// does not match "0", "0*/**" matches "00"): the walk must agree.
				{"**/foo.bar*/**"}, {"!**/run.sh*/**"}, {"**/foo*/**", "!**/a.go*/**"}}
			got := selections(t, g, scopes, []string{"README.md"})
			golden.Check(t, filepath.Join("testdata", "tricky-"+format+".txt"), []byte(got), *update)
		})
	}
}

// selections computes the fingerprint of HEAD over each scope, with a
// gate whose configuration files are configs, and lists them with what
// each selects; the lazy computation must agree with the eager one.
func selections(t *testing.T, g *Git, scopes [][]string, configs []string) string {
	t.Helper()
	var b strings.Builder
	for _, patterns := range scopes {
		s, err := subject.ParseScope(patterns)
		if err != nil {
			t.Fatal(err)
		}
		o := subject.Options{Rev: "HEAD", Scope: s, GateID: "review", GateVersion: "1", GateConfigs: configs}
		res := compute(t, g, o)
		fmt.Fprintf(&b, "scope %q: %s, %d entries\n", patterns, res.Fingerprint, len(res.Tree.Selected))
		if len(res.Tree.Selected) < 100 {
			for _, e := range res.Tree.Selected {
				fmt.Fprintf(&b, "\t%s\n", e)
			}
		}
		o.Lazy = true
		lazy := compute(t, g, o)
		if lazy.Fingerprint != res.Fingerprint || lazy.Count() != len(res.Tree.Selected) || lazy.Tree.All != nil {
			t.Errorf("scope %q, lazy: %s, %d entries (tree made: %t), want %s, %d entries, none made",
				patterns, lazy.Fingerprint, lazy.Count(), lazy.Tree.All != nil, res.Fingerprint, len(res.Tree.Selected))
		}
		tr, err := lazy.Entries()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(tr.All, res.Tree.All) || !slices.Equal(tr.Selected, res.Tree.Selected) {
			t.Errorf("scope %q, lazy: made %d entries, %d selected; want %d, %d", patterns, len(tr.All), len(tr.Selected), len(res.Tree.All), len(res.Tree.Selected))
		}
	}
	return b.String()
}

func compute(t *testing.T, g *Git, o subject.Options) *subject.Result {
	t.Helper()
	res, err := subject.Compute(context.Background(), g, o)
	if err != nil {
		t.Fatalf("scope %q: %v", o.Scope.Patterns(), err)
	}
	return res
}

// TestTreeWalkManyEntries checks the walk against git ls-tree on a tree
// whose listing fills several chunks of spans and of texts, with symlinks
// and a gitlink past the first chunk, and its selections against the
// golden file.
func TestTreeWalkManyEntries(t *testing.T) {
	n := 3*4096 + 100
	dir := gittest.BenchRepo(t, n)
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
	g := &Git{Dir: dir}
	defer g.Close()
	res := compute(t, g, subject.Options{Rev: "HEAD"})
	if want := lsTree(t, dir, commit); len(want) < n || !slices.Equal(res.Tree.All, want) {
		t.Fatalf("walked %d entries, git ls-tree %d (at least %d); they differ", len(res.Tree.All), len(want), n)
	}
	got := selections(t, g, [][]string{nil, {"d009/**"}, {"d012/**", "!**/s09/**"}, {"d01*/**", "!d011/**"}, {"d011/vendor/x"}}, nil)
	golden.Check(t, filepath.Join("testdata", "many-entries.txt"), []byte(got), *update)
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
	if _, err := subject.Compute(ctx, g, subject.Options{Rev: "0123456789012345678901234567890123456789"}); err == nil {
		t.Errorf("the tree of a missing commit: no error")
	}
	if _, err := g.Commit(ctx, "HEAD"); err != nil {
		t.Errorf("after errors: %v", err)
	}
	if _, err := (&Git{Dir: t.TempDir()}).Commit(ctx, "HEAD"); err == nil || !strings.Contains(err.Error(), "not a git repository") {
		t.Errorf("outside a repository: %v", err)
	}
}

// TestTreeWalkOfAMalformedTree: what git hands the walk is checked (the
// walk of odd trees is subject's TestWalkOddTrees), and a failed walk
// leaves the Git usable.
func TestTreeWalkOfAMalformedTree(t *testing.T) {
	r := gittest.New(t)
	blob := r.Git("hash-object", "-w", "--stdin")
	tree := hashObject(t, r.Dir, "tree", "100644 a\x00"+blob[:10])
	commit := r.Git("commit-tree", "-m", "bad", tree)
	r.Write("a.txt", "a\n")
	r.Commit("good")
	g := &Git{Dir: r.Dir}
	defer g.Close()
	ctx := context.Background()
	if _, err := subject.Compute(ctx, g, subject.Options{Rev: commit}); err == nil || !strings.Contains(err.Error(), "truncated entry") {
		t.Errorf("a truncated tree object: %v, want it refused", err)
	}
	if _, err := subject.Compute(ctx, g, subject.Options{Rev: "HEAD"}); err != nil {
		t.Errorf("after a failed walk: %v", err)
	}
}
