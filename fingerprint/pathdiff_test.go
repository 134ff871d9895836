package fingerprint

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/fingerprint/gittest"
	"github.com/google/go-cmp/cmp"
)

func TestDiffsOfPaths(t *testing.T) {
	r := gittest.New(t)
	r.Write("a.go", "package a\n\nvar x = 1\n", "gone.go", "package gone\n", "logo.png", "\x89PNG\x00\x01", "same.go", "package same\n",
		"with space.go", "1\n", "quote\"d.go", "1\n")
	r.Commit("base")
	r.Git("checkout", "-q", "-b", "topic")
	r.Write("a.go", "package a\n\nvar x = 2\n", "new.go", "package n\n", "logo.png", "\x89PNG\x00\x02", "-x.go", "package x\n",
		"with space.go", "2\n", "quote\"d.go", "2\n", "a.go b/a.go", "tricky\n")
	r.Git("rm", "-q", "gone.go")
	head := r.Commit("head")
	r.Git("checkout", "-q", "main")
	r.Write("base-only.go", "package b\n") // the base moves on: the diff is from the merge base
	base := r.Commit("base moves")
	g := &Git{Dir: r.Dir}
	defer g.Close()
	want := map[string]PathDiff{
		"a.go":          {Status: "modified", Patch: "@@ -1,3 +1,3 @@\n package a\n \n-var x = 1\n+var x = 2\n"},
		"new.go":        {Status: "added", Patch: "@@ -0,0 +1 @@\n+package n\n"},
		"gone.go":       {Status: "removed", Patch: "@@ -1 +0,0 @@\n-package gone\n"},
		"logo.png":      {Status: "modified", Binary: true},
		"-x.go":         {Status: "added", Patch: "@@ -0,0 +1 @@\n+package x\n"},
		"with space.go": {Status: "modified", Patch: "@@ -1 +1 @@\n-1\n+2\n"},
		"quote\"d.go":   {Status: "modified", Patch: "@@ -1 +1 @@\n-1\n+2\n"},
		"a.go b/a.go":   {Status: "added", Patch: "@@ -0,0 +1 @@\n+tricky\n"},
		// same.go is unchanged, base-only.go changed on the base only: absent
	}
	paths := []string{"same.go", "base-only.go", "no/such/file.go", "*.go"}
	for p := range want {
		paths = append(paths, p)
	}
	got, err := g.Diffs(context.Background(), base, head, paths)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestDiffsInBatches: more paths than one git diff is asked for.
func TestDiffsInBatches(t *testing.T) {
	r := gittest.New(t)
	var files, paths []string
	for i := range diffBatch + 5 {
		p := fmt.Sprintf("f%03d.go", i)
		files, paths = append(files, p, "1\n"), append(paths, p)
	}
	r.Write(files...)
	base := r.Commit("base")
	for i := range files {
		if i%2 == 1 {
			files[i] = "2\n"
		}
	}
	r.Write(files...)
	head := r.Commit("head")
	g := &Git{Dir: r.Dir}
	defer g.Close()
	got, err := g.Diffs(context.Background(), base, head, paths)
	if err != nil || len(got) != len(paths) {
		t.Fatalf("%d diffs of %d paths: %v", len(got), len(paths), err)
	}
}

func TestDiffsRefuseWhatIsNotAnIdOrAPath(t *testing.T) {
	g := &Git{Dir: t.TempDir()}
	oid := strings.Repeat("a", 40)
	for _, tc := range [][3]string{
		{"main", oid, "a.go"},
		{oid, "--output=/tmp/x", "a.go"},
		{oid, oid, ""},
		{oid, oid, "/etc/passwd"},
		{oid, oid, "a\nb"},
	} {
		if _, err := g.Diffs(context.Background(), tc[0], tc[1], []string{tc[2]}); err == nil {
			t.Errorf("Diffs(%q, %q, %q) did not refuse", tc[0], tc[1], tc[2])
		}
	}
	// refused by name, before git is run (git would fail the whole call)
	for _, p := range []string{"../x.go", "..", ".", "a//b.go", "a/./b.go", "dir/", "a\x01b", "a\x7fb"} {
		if _, err := g.Diffs(context.Background(), oid, oid, []string{"a.go", p}); err == nil || !strings.Contains(err.Error(), "not a path in the tree") {
			t.Errorf("Diffs(%q): %v, want it refused as not a path in the tree", p, err)
		}
	}
}

func TestDiffsWithoutTheCommitsSayWhy(t *testing.T) {
	r := gittest.New(t)
	r.Write("a.go", "1\n")
	a := r.Commit("a")
	g := &Git{Dir: r.Dir}
	defer g.Close()
	if _, err := g.Diffs(context.Background(), a, strings.Repeat("b", 40), []string{"a.go"}); err == nil || !strings.Contains(err.Error(), "git diff") {
		t.Errorf("a missing head: %v", err)
	}
}

func FuzzDiffPath(f *testing.F) {
	for _, s := range []string{"a/x b/x", `"a/x\ty" "b/x\ty"`, "a/a b/c b/a b/c", "a/ b/", `"a/`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, ok := diffPath(s)
		if ok && !strings.HasPrefix(s, `"`) && s != "a/"+p+" b/"+p {
			t.Errorf("diffPath(%q) = %q", s, p)
		}
	})
}

// TestDiffsOnlyOfFilesAndBounded: a finding's location that is a
// directory must not make git diff everything under it (nor "." the
// whole pull request), and a file's diff past MaxFileDiff bytes is not
// kept: it is marked too large, with no hunks.
func TestDiffsOnlyOfFilesAndBounded(t *testing.T) {
	r := gittest.New(t)
	r.Write("src/a.go", "1\n", "src/b.go", "1\n", "big.txt", "0\n", "c.go", "1\n")
	base := r.Commit("base")
	r.Write("src/a.go", "2\n", "src/b.go", "2\n", "big.txt", strings.Repeat("a line of the big file\n", MaxFileDiff/20), "c.go", "2\n")
	head := r.Commit("head")
	g := &Git{Dir: r.Dir}
	defer g.Close()
	got, err := g.Diffs(context.Background(), base, head, []string{"src", "big.txt", "c.go"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]PathDiff{
		"big.txt": {Status: "modified", TooLarge: true},
		"c.go":    {Status: "modified", Patch: "@@ -1 +1 @@\n-1\n+2\n"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
