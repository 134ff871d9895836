package subject

import (
	"slices"
	"testing"
)

func TestSelects(t *testing.T) {
	file := func(p string) Entry { return Entry{Path: p, Mode: ModeFile, Type: "blob"} }
	link := func(p string) Entry { return Entry{Path: p, Mode: ModeGitlink, Type: "commit"} }
	tests := []struct {
		scope []string
		e     Entry
		want  bool
	}{
		{nil, file("anything/at/all"), true},
		{[]string{"src/*.go"}, file("src/a.go"), true},
		{[]string{"src/*.go"}, file("src/sub/x.go"), false},
		{[]string{"src/**/*.go"}, file("src/sub/x.go"), true},
		{[]string{"src/**/*.go"}, file("src/a.go"), true},
		{[]string{"src/**"}, file("srcx/a.go"), false},
		{[]string{"src/**", "!src/gen/**"}, file("src/gen/api.go"), false},
		{[]string{"!src/gen/**", "src/**"}, file("src/main.go"), true},
		{[]string{"!docs/**"}, file("src/main.go"), true},
		{[]string{"!docs/**"}, file("docs/a.md"), false},
		{[]string{"vendor/lib/**"}, link("vendor/lib"), true},
		{[]string{"vendor/lib/**"}, file("vendor/lib"), true},
		{[]string{"vendor/lib/include/*.h"}, link("vendor/lib"), true},
		{[]string{"vendor/lib/include/*.h"}, file("vendor/lib"), false},
		{[]string{"vendor/*/x.h"}, link("vendor/lib"), true},
		{[]string{"vendor/other/**"}, link("vendor/lib"), false},
		{[]string{"vendor/lib/*.{h,c}"}, link("vendor/lib"), true},
		{[]string{"{vendor/lib/x,y}"}, link("other"), true}, // a "/" inside braces: included to be safe
		{[]string{"vendor/lib/**", "!vendor/lib"}, link("vendor/lib"), false},
		{[]string{"src"}, link("src/deep/mod"), false},
	}
	for _, tt := range tests {
		s, err := ParseScope(tt.scope)
		if err != nil {
			t.Fatalf("%q: %v", tt.scope, err)
		}
		if got := s.Selects(tt.e); got != tt.want {
			t.Errorf("scope %q selects %s %s = %v, want %v", tt.scope, tt.e.Mode, tt.e.Path, got, tt.want)
		}
	}
}

func TestParseScopeNormalises(t *testing.T) {
	a, err := ParseScope([]string{"src/**", "!src/gen/**", "docs/*.md", "src/**"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := ParseScope([]string{"docs/*.md", "!src/gen/**", "src/**"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"!src/gen/**", "docs/*.md", "src/**"}
	if !slices.Equal(a.Patterns(), want) || !a.Equal(b) {
		t.Errorf("patterns %q and %q, want both %q", a.Patterns(), b.Patterns(), want)
	}
}

func TestParseScopeErrors(t *testing.T) {
	for _, p := range []string{"", "!", "!!x", "/src/**", "./src", ".", "src/[a", "a\x00b", "../**", "src/../../x"} {
		if _, err := ParseScope([]string{"ok/**", p}); err == nil {
			t.Errorf("ParseScope(%q) = nil error", p)
		}
	}
}

func TestParseScopeFile(t *testing.T) {
	got := ParseScopeFile([]byte("# scope of the review gate\r\nsrc/**\r\n\n  !src/gen/**  \n#x\ndocs/*.md"))
	want := []string{"src/**", "!src/gen/**", "docs/*.md"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func FuzzScope(f *testing.F) {
	for _, s := range [][2]string{{"src/**", "src/a.go"}, {"!src/gen/**", "src/gen/x"}, {"vendor/{a,b/c}/*", "vendor/b"}, {`a\/b`, "a/b"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, path string) {
		s, err := ParseScope([]string{pattern})
		if err != nil {
			return
		}
		for _, mode := range []string{ModeFile, ModeGitlink} {
			s.Selects(Entry{Path: path, Mode: mode})
		}
		back, err := ParseScope(s.Patterns())
		if err != nil || !back.Equal(s) {
			t.Fatalf("normalised scope %q does not parse back to itself: %v", s.Patterns(), err)
		}
	})
}
