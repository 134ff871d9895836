package subject

import (
	"slices"
	"strings"
	"testing"
)

func TestSelectSymlinks(t *testing.T) {
	const gitlink = "0123456789abcdef0123456789abcdef01234567"
	tree := newRepo(t,
		"docs/guide.md", ModeFile, "guide",
		"lib/a.h", ModeFile, "a",
		"lib/sub/b.h", ModeFile, "b",
		"lib/sub/link", ModeSymlink, "../../shared/c.h",
		"shared/c.h", ModeFile, "c",
		"shared/other.h", ModeFile, "other",
		"src/main.c", ModeFile, "main",
		"src/conf.h", ModeSymlink, "../shared/c.h",
		"src/lib", ModeSymlink, "../lib",
		"src/via-dir", ModeSymlink, "lib/sub/b.h",
		"src/chain", ModeSymlink, "conf.h",
		"src/into-module", ModeSymlink, "../vendor/mod/include/x.h",
		"vendor/mod", ModeGitlink, gitlink,
	)
	tests := []struct {
		name  string
		scope []string
		want  []string
	}{
		{"file target outside the scope", []string{"src/conf.h"}, []string{"shared/c.h", "src/conf.h"}},
		{"chain of links", []string{"src/chain"}, []string{"shared/c.h", "src/chain", "src/conf.h"}},
		{"directory target, with a link inside it", []string{"src/lib"},
			[]string{"lib/a.h", "lib/sub/b.h", "lib/sub/link", "shared/c.h", "src/lib"}},
		{"link in the middle of the path", []string{"src/via-dir"}, []string{"lib/sub/b.h", "src/lib", "src/via-dir"}},
		{"into a submodule", []string{"src/into-module"}, []string{"src/into-module", "vendor/mod"}},
		{"excluded link is not followed", []string{"src/**", "!src/lib", "!src/via-dir", "!src/into-module"},
			[]string{"shared/c.h", "src/chain", "src/conf.h", "src/main.c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tree.selectPaths(t, tt.scope...)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("selected %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSelectSymlinkFailsClosed(t *testing.T) {
	tests := []struct {
		name, target, want string
	}{
		{"absolute", "/etc/passwd", "outside the repository"},
		{"escapes the root", "../../etc/passwd", "outside the repository"},
		{"dangling", "missing.h", "src/missing.h is not in the tree"},
		{"through a file", "main.c/x", "is a file, not a directory"},
		{"loop", "loop", "a loop"},
		{"empty", "", "empty target"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tree := newRepo(t, "src/main.c", ModeFile, "main", "src/link", ModeSymlink, tt.target,
				"src/loop", ModeSymlink, "loop2", "src/loop2", ModeSymlink, "loop")
			_, err := tree.selectPaths(t, "src/link")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestSelectRootLink(t *testing.T) {
	tree := newRepo(t, "a", ModeFile, "a", "d/up", ModeSymlink, "..", "e/f", ModeFile, "f")
	got, err := tree.selectPaths(t, "d/**")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "d/up", "e/f"}; !slices.Equal(got, want) {
		t.Errorf("selected %q, want %q", got, want)
	}
}
