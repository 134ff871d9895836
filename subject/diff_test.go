package subject

import (
	"testing"

	"github.com/agcgate/agc-action/internal/testkit"

	"github.com/google/go-cmp/cmp"
)

func TestDiff(t *testing.T) {
	old := newRepo(t,
		"docs/guide.md", ModeFile, "guide",
		"src/a.go", ModeFile, "a",
		"src/b.go", ModeFile, "b",
		"src/c.go", ModeFile, "c",
		"src/d.go", ModeFile, "d",
		"src/e.sh", ModeFile, "e",
		"src/f.go", ModeFile, "f",
		"tools/t.go", ModeFile, "t",
	)
	new := newRepo(t,
		"docs/b.go", ModeFile, "b", // src/b.go moved out of the scope
		"docs/guide.md", ModeFile, "guide v2",
		"src/a.go", ModeFile, "a v2",
		"src/c2.go", ModeFile, "c", // renamed within the scope
		"src/e.sh", ModeExec, "e",
		"src/f.go", ModeExec, "f v2",
		"src/new.go", ModeFile, "new",
		"tools/t.go", ModeFile, "t",
	)
	tree := func(m *memRepo, patterns ...string) Tree {
		res, err := m.compute(t, patterns...)
		if err != nil {
			t.Fatal(err)
		}
		return res.Tree
	}
	got := testkit.Strings(Diff(tree(old, "src/**"), tree(new, "src/**", "tools/**")))
	want := []string{
		"src/a.go modified",
		"src/b.go renamed to docs/b.go",
		"src/c.go renamed to src/c2.go",
		"src/d.go deleted",
		"src/e.sh mode changed (100644 -> 100755)",
		"src/f.go modified (mode 100644 -> 100755)",
		"src/new.go added",
		"tools/t.go entered the scope",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Diff (-want +got):\n%s", d)
	}
	if d := Diff(tree(old, "src/**"), tree(old, "src/**")); len(d) != 0 {
		t.Errorf("Diff of a tree with itself = %v", d)
	}
}
