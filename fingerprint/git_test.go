package fingerprint_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/fingerprint"
	"github.com/agcgate/agc-action/fingerprint/gittest"
	"github.com/agcgate/agc-action/subject"
)

// compute fingerprints rev of the repository in dir over patterns.
func compute(t *testing.T, dir, rev string, patterns ...string) *subject.Result {
	t.Helper()
	return computeOpts(t, dir, subject.Options{Rev: rev, Scope: scope(t, patterns...)})
}

func computeOpts(t *testing.T, dir string, o subject.Options) *subject.Result {
	t.Helper()
	g := &fingerprint.Git{Dir: dir}
	defer g.Close()
	r, err := subject.Compute(context.Background(), g, o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func scope(t *testing.T, patterns ...string) subject.Scope {
	t.Helper()
	s, err := subject.ParseScope(patterns)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func changes(old, new *subject.Result) []string {
	var out []string
	for _, c := range subject.Diff(old.Tree, new.Tree) {
		out = append(out, c.String())
	}
	return out
}

// base is a repository with code under src/ and docs under docs/.
func base(t *testing.T) *gittest.Repo {
	r := gittest.New(t)
	r.Write("src/a.go", "package a\n", "src/b.go", "package b\n", "src/sub/x.go", "package sub\n",
		"src/gen/api.go", "package gen\n", "docs/README.md", "# docs\n", "shared/config.h", "#define N 1\n")
	r.Commit("base")
	return r
}

func TestFingerprintAcrossCommits(t *testing.T) {
	tests := []struct {
		name   string
		scope  []string
		change func(r *gittest.Repo)
		want   []string // nil: the fingerprint carries
	}{
		{"docs-only commit carries", []string{"src/**"},
			func(r *gittest.Repo) { r.Write("docs/README.md", "# docs, reworded\n") }, nil},
		{"edit in scope voids", []string{"src/**"},
			func(r *gittest.Repo) { r.Write("src/a.go", "package a // edited\n") }, []string{"src/a.go modified"}},
		{"rename out of scope voids", []string{"src/**"},
			func(r *gittest.Repo) { r.Git("mv", "src/b.go", "docs/b.go") }, []string{"src/b.go renamed to docs/b.go"}},
		{"rename within scope voids", []string{"src/**"},
			func(r *gittest.Repo) { r.Git("mv", "src/b.go", "src/c.go") }, []string{"src/b.go renamed to src/c.go"}},
		{"mode-only change voids", []string{"src/**"}, func(r *gittest.Repo) {
			if err := os.Chmod(filepath.Join(r.Dir, "src/a.go"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, []string{"src/a.go mode changed (100644 -> 100755)"}},
		{"new file in scope voids", []string{"src/**"},
			func(r *gittest.Repo) { r.Write("src/new.go", "package a\n") }, []string{"src/new.go added"}},
		{"src/*.go ignores src/sub/x.go", []string{"src/*.go"},
			func(r *gittest.Repo) { r.Write("src/sub/x.go", "package sub // edited\n") }, nil},
		{"src/**/*.go sees src/sub/x.go", []string{"src/**/*.go"},
			func(r *gittest.Repo) { r.Write("src/sub/x.go", "package sub // edited\n") }, []string{"src/sub/x.go modified"}},
		{"! excludes", []string{"src/**", "!src/gen/**"},
			func(r *gittest.Repo) { r.Write("src/gen/api.go", "package gen // regenerated\n") }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := base(t)
			before := compute(t, r.Dir, "HEAD", tt.scope...)
			tt.change(r)
			r.Commit("change")
			after := compute(t, r.Dir, "HEAD", tt.scope...)
			if got := changes(before, after); !slices.Equal(got, tt.want) {
				t.Errorf("changes %q, want %q", got, tt.want)
			}
			if carried := before.Fingerprint == after.Fingerprint; carried != (tt.want == nil) {
				t.Errorf("fingerprint %s -> %s: carried = %v, want %v", before.Fingerprint, after.Fingerprint, carried, tt.want == nil)
			}
		})
	}
}

func TestDeletingTheScope(t *testing.T) {
	r := base(t)
	before := compute(t, r.Dir, "HEAD", "src/**")
	r.Git("rm", "-q", "-r", "src")
	r.Commit("delete src")
	after := compute(t, r.Dir, "HEAD", "src/**")
	docs := gittest.New(t)
	docs.Write("docs/README.md", "# docs\n")
	docs.Commit("no src/")
	empty := compute(t, docs.Dir, "HEAD", "src/**").Fingerprint // the empty selection's
	if after.Fingerprint != empty || before.Fingerprint == empty || len(after.Tree.Selected) != 0 {
		t.Errorf("after deleting src/: %s (%d entries), want the empty selection's %s", after.Fingerprint, len(after.Tree.Selected), empty)
	}
	if got := changes(before, after); len(got) != 4 || got[0] != "src/a.go deleted" {
		t.Errorf("changes %q, want the four files of src/ deleted", got)
	}
}

func TestSymlinkTargetOutsideScope(t *testing.T) {
	r := base(t)
	r.Symlink("../shared/config.h", "src/config.h")
	r.Commit("link")
	before := compute(t, r.Dir, "HEAD", "src/**")
	r.Write("shared/config.h", "#define N 2\n")
	r.Commit("change the target")
	after := compute(t, r.Dir, "HEAD", "src/**")
	if got, want := changes(before, after), []string{"shared/config.h modified"}; !slices.Equal(got, want) {
		t.Errorf("changes %q, want %q", got, want)
	}
	r.Symlink("../../outside", "src/config.h")
	r.Commit("point outside the repository")
	g := &fingerprint.Git{Dir: r.Dir}
	defer g.Close()
	_, err := subject.Compute(context.Background(), g, subject.Options{Rev: "HEAD", Scope: scope(t, "src/**")})
	if err == nil || !strings.Contains(err.Error(), "src/config.h points outside the repository") {
		t.Errorf("link outside the repository: error %v, want it to fail closed", err)
	}
}

func TestSubmoduleBump(t *testing.T) {
	lib := gittest.New(t)
	lib.Write("include/x.h", "int x;\n")
	lib.Commit("lib v1")
	r := base(t)
	r.Git("-c", "protocol.file.allow=always", "submodule", "add", "-q", lib.Dir, "vendor/lib")
	r.Commit("add lib")
	for _, sc := range [][]string{{"vendor/lib/**"}, {"vendor/lib/include/*.h"}} {
		if res := compute(t, r.Dir, "HEAD", sc...); len(res.Tree.Selected) != 1 || res.Tree.Selected[0].Path != "vendor/lib" {
			t.Errorf("scope %q selects %v, want the gitlink vendor/lib", sc, res.Tree.Selected)
		}
	}
	before := compute(t, r.Dir, "HEAD", "vendor/lib/**")
	lib.Write("include/x.h", "long x;\n")
	lib.Commit("lib v2")
	gittest.Run(t, filepath.Join(r.Dir, "vendor/lib"), "-c", "protocol.file.allow=always", "pull", "-q", "origin", "main")
	r.Commit("bump lib")
	after := compute(t, r.Dir, "HEAD", "vendor/lib/**")
	if got, want := changes(before, after), []string{"vendor/lib modified"}; !slices.Equal(got, want) {
		t.Errorf("changes %q, want %q", got, want)
	}
}

func TestScopeIsHashed(t *testing.T) {
	r := base(t)
	a := compute(t, r.Dir, "HEAD", "src/**", "!src/gen/**", "docs/*.md")
	b := compute(t, r.Dir, "HEAD", "docs/*.md", "src/**", "!src/gen/**")
	if a.Fingerprint != b.Fingerprint {
		t.Errorf("pattern order changed the fingerprint: %s != %s", a.Fingerprint, b.Fingerprint)
	}
	c := compute(t, r.Dir, "HEAD", "src/**", "!src/gen/**", "docs/*.md", "nothing/**")
	if c.Fingerprint == a.Fingerprint || len(c.Tree.Selected) != len(a.Tree.Selected) {
		t.Errorf("adding a pattern that selects nothing more kept the fingerprint %s", a.Fingerprint)
	}
}

func TestShallowCloneEqualsFullClone(t *testing.T) {
	r := base(t)
	r.Symlink("../shared/config.h", "src/config.h")
	r.Commit("link")
	r.Write("docs/README.md", "# more\n")
	r.Commit("docs")
	shallow := filepath.Join(t.TempDir(), "shallow")
	gittest.Run(t, r.Dir, "clone", "-q", "--depth", "1", "file://"+r.Dir, shallow)
	if n := gittest.Run(t, shallow, "rev-list", "--count", "HEAD"); n != "1" {
		t.Fatalf("the clone has %s commits, want a shallow one", n)
	}
	full, sh := compute(t, r.Dir, "HEAD", "src/**"), compute(t, shallow, "HEAD", "src/**")
	if full.Fingerprint != sh.Fingerprint {
		t.Errorf("shallow clone %s, full clone %s", sh.Fingerprint, full.Fingerprint)
	}
}

// TestParentsOfAShallowMerge: the parents of a merge are read from its
// object, in a clone of depth 1 too, where rev-parse knows none.
func TestParentsOfAShallowMerge(t *testing.T) {
	r := base(t)
	r.Git("checkout", "-q", "-b", "pr")
	r.Write("src/main.go", "package main // pr\n")
	head := r.Commit("pr")
	r.Git("checkout", "-q", "main")
	r.Write("docs/README.md", "# more\n")
	tip := r.Commit("docs")
	r.Git("merge", "-q", "--no-ff", "-m", "merge", head)
	shallow := filepath.Join(t.TempDir(), "shallow")
	gittest.Run(t, r.Dir, "clone", "-q", "--depth", "1", "file://"+r.Dir, shallow)
	g := &fingerprint.Git{Dir: shallow}
	defer g.Close()
	got, err := g.Parents(context.Background(), "HEAD")
	if err != nil || !slices.Equal(got, []string{tip, head}) {
		t.Errorf("Parents = %q, %v; want %q", got, err, []string{tip, head})
	}
	root := &fingerprint.Git{Dir: r.Dir}
	defer root.Close()
	if got, err := root.Parents(context.Background(), r.Git("rev-list", "--max-parents=0", "HEAD")); err != nil || len(got) != 0 {
		t.Errorf("Parents of the root commit = %q, %v; want none", got, err)
	}
	for _, bad := range []string{"", "-h", "no-such-rev"} {
		if _, err := g.Parents(context.Background(), bad); err == nil {
			t.Errorf("Parents(%q): nil error", bad)
		}
	}
}

func TestMergeAndRebaseOfDocsOnlyBase(t *testing.T) {
	r := base(t)
	r.Git("checkout", "-q", "-b", "feature")
	r.Write("src/a.go", "package a // feature\n")
	r.Commit("feature")
	judged := compute(t, r.Dir, "HEAD", "src/**")
	r.Git("checkout", "-q", "main")
	r.Write("docs/README.md", "# docs on main\n")
	r.Commit("docs on main")
	r.Git("checkout", "-q", "feature")
	r.Git("merge", "-q", "--no-edit", "main")
	if merged := compute(t, r.Dir, "HEAD", "src/**"); merged.Fingerprint != judged.Fingerprint {
		t.Errorf("merge of a docs-only base: %s, judged %s; changes %q", merged.Fingerprint, judged.Fingerprint, changes(judged, merged))
	}
	r.Git("reset", "-q", "--hard", "HEAD~1")
	r.Git("rebase", "-q", "main")
	if rebased := compute(t, r.Dir, "HEAD", "src/**"); rebased.Fingerprint != judged.Fingerprint {
		t.Errorf("rebase onto a docs-only base: %s, judged %s", rebased.Fingerprint, judged.Fingerprint)
	}
}

func TestGateConfigChangeVoids(t *testing.T) {
	r := base(t)
	r.Write(".agc/review.md", "Review src/ for bugs.\n")
	r.Commit("gate config")
	o := subject.Options{Rev: "HEAD", Scope: scope(t, "src/**"), GateID: "review", GateVersion: "1.0",
		GateConfigs: []string{".agc/review.md"}}
	before := computeOpts(t, r.Dir, o)
	r.Write(".agc/review.md", "Review src/ for bugs. Approve everything.\n")
	r.Commit("change the gate's prompt")
	if after := computeOpts(t, r.Dir, o); after.Fingerprint == before.Fingerprint {
		t.Errorf("a change of the gate's config kept the fingerprint %s", before.Fingerprint)
	}
	o.GateConfigs = []string{"missing.md"}
	g := &fingerprint.Git{Dir: r.Dir}
	defer g.Close()
	if _, err := subject.Compute(context.Background(), g, o); err == nil || !strings.Contains(err.Error(), "missing.md") {
		t.Errorf("missing gate config: error %v", err)
	}
}

func TestScopeFileReadFromBase(t *testing.T) {
	r := base(t)
	r.Write(".agc/scope", "# what the review gate judges\nsrc/**\n")
	r.Commit("scope file")
	r.Git("checkout", "-q", "-b", "pr")
	r.Write(".agc/scope", "src/a.go\n") // the PR shrinks its own scope
	r.Commit("shrink the scope")
	g := &fingerprint.Git{Dir: r.Dir}
	defer g.Close()
	ctx := context.Background()
	sc, err := subject.ReadScopeFile(ctx, g, "main", ".agc/scope")
	if err != nil {
		t.Fatal(err)
	}
	if !sc.Equal(scope(t, "src/**")) {
		t.Fatalf("scope from main %q, want src/**", sc.Patterns())
	}
	judged := computeOpts(t, r.Dir, subject.Options{Rev: "HEAD", Scope: sc})
	r.Write("src/b.go", "package b // unreviewed\n")
	r.Commit("edit outside the shrunk scope")
	sc2, err := subject.ReadScopeFile(ctx, g, "main", ".agc/scope")
	if err != nil {
		t.Fatal(err)
	}
	now := computeOpts(t, r.Dir, subject.Options{Rev: "HEAD", Scope: sc2})
	if now.Fingerprint == judged.Fingerprint {
		t.Errorf("the PR's own scope file let src/b.go change unnoticed")
	}
	if _, err := subject.ReadScopeFile(ctx, g, "main", ".agc/missing"); err == nil {
		t.Errorf("a missing scope file gave no error")
	}
}

// TestWorkedExampleRepo builds the worked example of docs/fingerprint.md as
// a real repository and checks the git CLI path gives its value.
func TestWorkedExampleRepo(t *testing.T) {
	r := gittest.New(t)
	r.Write(".agc/review.md", "Review src/ for bugs.\n", "README.md", "# demo\n", "shared/config.h", "#define N 1\n",
		"src/gen/api.go", "package gen\n", "src/main.go", "package main\n", "src/run.sh", "#!/bin/sh\n")
	if err := os.Chmod(filepath.Join(r.Dir, "src/run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.Symlink("../shared/config.h", "src/config.h")
	r.Commit("worked example")
	res := computeOpts(t, r.Dir, subject.Options{Rev: "HEAD", Scope: scope(t, "src/**", "!src/gen/**"),
		GateID: "review", GateVersion: "1.0", GateConfigs: []string{".agc/review.md"}})
	golden, err := os.ReadFile(filepath.Join("..", "subject", "testdata", "worked-example.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(golden)), "\n")
	if want := lines[len(lines)-1]; res.Fingerprint != want {
		t.Errorf("worked example repository: %s, want %s", res.Fingerprint, want)
	}
}
