package subject

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Scope is a normalised list of scope patterns: doublestar globs over
// repo-relative paths, "!" marking an exclusion. A path is selected when it
// matches some include pattern (any path, when there is none) and no
// exclude pattern. Order does not matter; the zero Scope is the whole tree.
type Scope struct {
	patterns []string // sorted byte-wise, no duplicates
	include  []glob
	exclude  []glob // without the leading "!"
}

// glob is a pattern with its literal prefix, a cheap first test.
type glob struct {
	pattern, prefix string
}

func newGlob(p string) glob {
	i := strings.IndexAny(p, `*?[{\`)
	if i < 0 {
		i = len(p)
	}
	return glob{pattern: p, prefix: p[:i]}
}

// match reports whether the glob matches path. A path must start with the
// literal prefix, or be the prefix without its final "/" (src/** matches src).
func (g glob) match(path string) bool {
	if !strings.HasPrefix(path, g.prefix) {
		n := len(g.prefix)
		if !(n > 0 && g.prefix[n-1] == '/' && path == g.prefix[:n-1]) {
			return false
		}
	}
	return doublestar.MatchUnvalidated(g.pattern, path)
}

// ParseScope validates and normalises patterns.
func ParseScope(patterns []string) (Scope, error) {
	var s Scope
	for i, p := range patterns {
		body, neg := strings.CutPrefix(p, "!")
		if err := checkPattern(body); err != nil {
			return Scope{}, fmt.Errorf("scope pattern %d %q: %w", i+1, p, err)
		}
		if neg {
			s.exclude = append(s.exclude, newGlob(body))
		} else {
			s.include = append(s.include, newGlob(body))
		}
		s.patterns = append(s.patterns, p)
	}
	slices.Sort(s.patterns)
	s.patterns = slices.Compact(s.patterns)
	return s, nil
}

func checkPattern(body string) error {
	switch {
	case body == "":
		return fmt.Errorf("empty pattern")
	case strings.HasPrefix(body, "!"):
		return fmt.Errorf(`a pattern may start with one "!" only; escape a literal one as "\!"`)
	case strings.HasPrefix(body, "/"), strings.HasPrefix(body, "./"), body == ".":
		return fmt.Errorf("patterns are relative to the repository root: drop the leading %q", body[:min(len(body), 2)])
	case slices.Contains(strings.Split(body, "/"), ".."):
		return fmt.Errorf("a pattern cannot leave the repository (a %q segment)", "..")
	case strings.ContainsRune(body, 0):
		return fmt.Errorf("pattern contains a NUL byte")
	case !doublestar.ValidatePattern(body):
		return fmt.Errorf("not a valid doublestar glob")
	}
	return nil
}

// Patterns returns the normalised patterns: sorted byte-wise, deduplicated.
func (s Scope) Patterns() []string { return slices.Clone(s.patterns) }

// Whole reports whether the scope has no patterns (the whole tree).
func (s Scope) Whole() bool { return len(s.patterns) == 0 }

// Equal reports whether two scopes have the same normalised patterns.
func (s Scope) Equal(t Scope) bool { return slices.Equal(s.patterns, t.patterns) }

// Selects reports whether the scope selects e. A gitlink is selected when an
// include pattern matches its path or could match a path beneath it, since
// the submodule's content is beneath it.
func (s Scope) Selects(e Entry) bool {
	if s.excluded(e.Path) {
		return false
	}
	if len(s.include) == 0 {
		return true
	}
	for _, g := range s.include {
		if g.match(e.Path) || e.Mode == ModeGitlink && couldMatchUnder(g.pattern, e.Path) {
			return true
		}
	}
	return false
}

func (s Scope) excluded(path string) bool {
	for _, g := range s.exclude {
		if g.match(path) {
			return true
		}
	}
	return false
}

// couldMatchUnder reports whether pattern could match some path strictly
// beneath dir. It errs towards true: a brace group holding a "/" makes the
// segments ambiguous, so it answers true.
func couldMatchUnder(pattern, dir string) bool {
	segs, ok := splitSegments(pattern)
	if !ok {
		return true
	}
	comps := strings.Split(dir, "/")
	for i, c := range comps {
		if i >= len(segs) {
			return false
		}
		if segs[i] == "**" {
			return true
		}
		if !doublestar.MatchUnvalidated(segs[i], c) {
			return false
		}
	}
	return len(segs) > len(comps)
}

// splitSegments splits a pattern at the "/" outside brace groups. ok is
// false when a "/" sits inside a brace group.
func splitSegments(p string) (segs []string, ok bool) {
	depth, start := 0, 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '{':
			depth++
		case '}':
			depth = max(depth-1, 0)
		case '/':
			if depth > 0 {
				return nil, false
			}
			segs = append(segs, p[start:i])
			start = i + 1
		}
	}
	return append(segs, p[start:]), true
}

// ParseScopeFile reads scope patterns from a scope file: one pattern a
// line; surrounding blanks and a trailing CR are dropped; empty lines and
// lines starting with "#" are skipped.
func ParseScopeFile(data []byte) []string {
	var out []string
	for line := range strings.SplitSeq(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, line)
	}
	return out
}
