package fingerprint

import (
	"context"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/fingerprint/gittest"
	"github.com/google/go-cmp/cmp"
)

func TestDiffOfOnePath(t *testing.T) {
	r := gittest.New(t)
	r.Write("a.go", "package a\n\nvar x = 1\n", "gone.go", "package gone\n", "logo.png", "\x89PNG\x00\x01", "same.go", "package same\n")
	r.Commit("base")
	r.Git("checkout", "-q", "-b", "topic")
	r.Write("a.go", "package a\n\nvar x = 2\n", "new.go", "package n\n", "logo.png", "\x89PNG\x00\x02", "-x.go", "package x\n")
	r.Git("rm", "-q", "gone.go")
	head := r.Commit("head")
	r.Git("checkout", "-q", "main")
	r.Write("base-only.go", "package b\n") // the base moves on: the diff is from the merge base
	base2 := r.Commit("base moves")
	g := &Git{Dir: r.Dir}
	defer g.Close()
	for _, tc := range []struct {
		path string
		want PathDiff
	}{
		{"a.go", PathDiff{Status: "modified", Patch: "@@ -1,3 +1,3 @@\n package a\n \n-var x = 1\n+var x = 2\n"}},
		{"new.go", PathDiff{Status: "added", Patch: "@@ -0,0 +1 @@\n+package n\n"}},
		{"gone.go", PathDiff{Status: "removed", Patch: "@@ -1 +0,0 @@\n-package gone\n"}},
		{"logo.png", PathDiff{Status: "modified", Binary: true}},
		{"same.go", PathDiff{}},
		{"base-only.go", PathDiff{}}, // changed on the base, not by the pull request
		{"-x.go", PathDiff{Status: "added", Patch: "@@ -0,0 +1 @@\n+package x\n"}},
	} {
		got, err := g.Diff(context.Background(), base2, head, tc.path)
		if err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.path, diff)
		}
	}
}

func TestDiffRefusesWhatIsNotAnIdOrAPath(t *testing.T) {
	g := &Git{Dir: t.TempDir()}
	oid := strings.Repeat("a", 40)
	for _, tc := range [][3]string{
		{"main", oid, "a.go"},
		{oid, "--output=/tmp/x", "a.go"},
		{oid, oid, ""},
		{oid, oid, "/etc/passwd"},
		{oid, oid, "a\nb"},
	} {
		if _, err := g.Diff(context.Background(), tc[0], tc[1], tc[2]); err == nil {
			t.Errorf("Diff(%q, %q, %q) did not refuse", tc[0], tc[1], tc[2])
		}
	}
}

func TestDiffWithoutTheMergeBaseSaysSo(t *testing.T) {
	r := gittest.New(t)
	r.Write("a.go", "1\n")
	a := r.Commit("a")
	r.Write("a.go", "2\n")
	b := r.Commit("b")
	g := &Git{Dir: r.Dir}
	defer g.Close()
	if _, err := g.Diff(context.Background(), a, strings.Repeat("b", 40), "a.go"); err == nil || !strings.Contains(err.Error(), "git diff") {
		t.Errorf("a missing head: %v", err)
	}
	if d, err := g.Diff(context.Background(), a, b, "a.go"); err != nil || d.Patch == "" {
		t.Errorf("a present pair: %+v, %v", d, err)
	}
}
