package fingerprint

import (
	"strings"
	"testing"
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
}

// FuzzDirScope checks that deciding a directory at once agrees with
// Selects on every path, whatever the pattern.
func FuzzDirScope(f *testing.F) {
	for _, s := range scopeSeeds {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, p1, p2, path string) {
		s, err := ParseScope([]string{p1, p2})
		if err != nil || !validPath(path) {
			return
		}
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
