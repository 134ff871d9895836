package subject

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
)

// scopeSeeds are two patterns and a path, the seeds of the fuzz targets
// that check a scope's decisions for a directory (FuzzDirScope,
// FuzzPrunes).
var scopeSeeds = [][3]string{
	{"d0[0-4]*/**", "!**/s09/**", "d000/s09/f.go"}, {"d0[0-4]*/**", "!**/s09/**", "d050/s00/f.go"},
	{"d09*/s0?/*.go", "!d000/link.go", "d090/s01/f.go"}, {"d09*/s0?/*.go", "!d000/link.go", "d090/s01/x/f.go"},
	{"src/**", "!src/gen/**", "src/gen/x"}, {"**/s09/**", "a/b", "s09/x"}, {"**/s09/**", "a/b", "a/s09/x"},
	{"a[/]b/**", "x[!a]y/**", "x/y/z"}, {"a[.-0]/**", "**/[a-c]/**", "a//b"}, {"a/*/c", "!b/**", "a/x/c"},
	{"*/**", "**/*/**", "x/y"}, {"{a,b/c}/**", `a\/b/**`, "a/b/c"}, {"**/\ufffd/**", "!**/s09/**", "a/\xff/b"},
	{"!**/s09/**", "d0*/**", "d0/s09"}, {"vendor/lib/include/*.h", "x", "vendor/lib"},
	// "**/SEGMENT" and "DIR/**/SEGMENT", decided by the name.
	{"src/**", "!**/*_test.go", "src/a/b_test.go"}, {"src/**/*.go", "**/go.mod", "src/go.mod"},
	{"**/*.go", "!**/.*", "a/.x.go"}, {"0*/**/0*", "!**/[a-c]?", "0/0"}, {"0*/**/0*", "x", "0"},
	{"**/Make*", "!**/*mock*", "a/Makefile.mock"}, {"d0*/**/f1.go", "!**/*", "d01/f1.go"},
	{"**/{a,b}.go", `!**/a\*b`, "x/a*b"}, {"**/[!a]", "src/**/[a-c]", "src/b"},
	{"**/\ufffd", "!a/**/?", "a/\xff"}, {"**/*", "!**/*.go", "a/b"},
}

// fuzzScopes seeds f with scopeSeeds and runs check on every scope of
// two patterns that parses, with a valid path.
func fuzzScopes(f *testing.F, check func(t *testing.T, s Scope, path string)) {
	for _, s := range scopeSeeds {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, p1, p2, path string) {
		if s, err := ParseScope([]string{p1, p2}); err == nil && validPath(path) {
			check(t, s, path)
		}
	})
}

// FuzzDirScope checks that deciding a directory at once agrees with
// Selects on every path, whatever the pattern.
func FuzzDirScope(f *testing.F) {
	fuzzScopes(f, func(t *testing.T, s Scope, path string) {
		for cut := 0; cut <= len(path); cut++ {
			if cut < len(path) && path[cut] != '/' {
				continue
			}
			prefix, name := "", path
			if cut < len(path) {
				prefix, name = path[:cut+1], path[cut+1:]
			}
			d := s.forDir(prefix)
			for _, mode := range []string{ModeFile, ModeSymlink, ModeGitlink} {
				e := Entry{Path: path, Mode: mode}
				if got, want := d.selects(e, name), s.Selects(e); got != want {
					t.Fatalf("scope %q, %s in %q: directory says %v, Selects %v", s.Patterns(), mode, strings.TrimSuffix(prefix, "/"), got, want)
				}
			}
		}
	})
}

// TestDirGlobShapes: "**/SEGMENT" and "DIR/**/SEGMENT", SEGMENT one
// plain segment and DIR plain, are decided by each entry's name (byLast)
// with a matcher compiled for the segment's shape, or for the whole
// directory when DIR does not match it; what cannot be decided so exactly
// is matched path by path.
func TestDirGlobShapes(t *testing.T) {
	for _, tc := range []struct {
		pattern, prefix string
		how, kind       uint8
	}{
		{"**/*_test.go", "", byLast, nameSuffix},
		{"**/*_test.go", "a/b/", byLast, nameSuffix},
		{"**/go.mod", "a/", byLast, nameLiteral},
		{"**/*.go", "a/", byLast, nameSuffix},
		{"**/Make*", "", byLast, namePrefix},
		{"**/*mock*", "", byLast, nameContains},
		{"**/[a-c]?.go", "", byLast, nameGlob},
		{"**/*", "x/", byLast, nameSuffix},
		{"src/**/*.go", "src/", byLast, nameSuffix},
		{"src/**/*.go", "src/a/b/", byLast, nameSuffix},
		{"src/**/*.go", "", matchNone, 0},
		{"src/**/*.go", "lib/", matchNone, 0},
		{"src/**/*.go", "srcx/a/", matchNone, 0},
		{"d0*/**/f1.go", "d01/x/", byLast, nameLiteral},
		{"a/b/**/*_test.go", "a/", matchNone, 0},
		{"a/b/**/*_test.go", "a/b/", byLast, nameSuffix},
		// The shapes decided before.
		{"d09*/s0?/*.go", "d090/s01/", byLast, nameSuffix},
		{"**/s09/**", "d000/", byName, nameLiteral},
		// Matched path by path.
		{"**/{a,b}.go", "", eachPath, 0},
		{`**/a\*b`, "", eachPath, 0},
		{"**/[!a]", "", eachPath, 0},
		{"**/a/*.go", "", eachPath, 0},
		{"src/**/a/*.go", "src/", eachPath, 0},
		{"src/**/**/*.go", "src/", eachPath, 0},
		{"{a,b}/**/*.go", "a/", eachPath, 0},
		{"**/*.go", "\xff/", eachPath, 0},
	} {
		s, err := ParseScope([]string{tc.pattern})
		if err != nil {
			t.Fatal(err)
		}
		d := s.forDir(tc.prefix).include[0]
		if d.how != tc.how || d.how == byLast && d.name.kind != tc.kind {
			t.Errorf("%q in %q: how %d (name kind %d), want %d (%d)", tc.pattern, tc.prefix, d.how, d.name.kind, tc.how, tc.kind)
		}
	}
}

// FuzzNameMatch checks the compiled matcher of a plain segment against
// doublestar on the names it is asked about: one component of valid UTF-8.
func FuzzNameMatch(f *testing.F) {
	for _, s := range [][2]string{
		{"*_test.go", "a_test.go"}, {"*.go", ".go"}, {"go.mod", "go.mod"}, {"Make*", "Make"},
		{"*mock*", "mock"}, {"[a-c]?.go", "b1.go"}, {"*", ""}, {"*a*a", "aa"}, {"a*", "\u00e9"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, seg, name string) {
		if !plain(seg) || strings.Contains(seg, "/") || !doublestar.ValidatePattern(seg) ||
			!utf8.ValidString(name) || strings.Contains(name, "/") {
			return
		}
		m := compileName(seg)
		if got, want := m.match(name), doublestar.MatchUnvalidated(seg, name); got != want {
			t.Fatalf("segment %q (kind %d), name %q: %v, doublestar %v", seg, m.kind, name, got, want)
		}
	})
}

func TestPlain(t *testing.T) {
	for p, want := range map[string]bool{
		"src": true, "d0[0-4]*": true, "a/*.go": true, "a?b/c": true, "[abc]": true,
		"**": false, "a**": false, "{a,b}": false, `a\/b`: false, "[!a]": false, "[^a]": false,
		"[/]": false, "[.-0]": false, "[-/]": false, "": false,
		// A reversed range cannot match "/", but its "/" would split the
		// pattern's segments in two (FuzzDirScope: "[0-/]" and "0").
		"[a-/]": false, "[0-/]": false,
	} {
		if got := plain(p); got != want {
			t.Errorf("plain(%q) = %v, want %v", p, got, want)
		}
	}
}
