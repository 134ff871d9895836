package subject

import (
	"strings"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
)

// A tree is listed one directory at a time, and four common shapes of
// pattern decide a whole directory at once, or each entry by its name
// alone, exactly as doublestar.Match would decide each of its paths:
//
//   - "Q/**", where Q is plain (below): Q matches exactly the paths of as
//     many components as it has segments, so once a directory is that deep,
//     every path under it matches when its first components match Q, and
//     none does otherwise;
//   - "**/M/**", where M is one plain segment: a path matches when any of
//     its components matches M, so under a directory with such a
//     component every path matches, and under any other only names that
//     match M (those are matched path by path: doublestar does not match
//     "**/0*/**" against "0", though "0*" matches "0");
//   - "Q/**/S" and "**/S", where Q is plain and S one plain segment: a
//     path matches when its name matches S and, for Q/**/S, it lies in a
//     directory at least as deep as Q has segments whose first
//     components match Q ("**" matches zero directories or more), so in
//     a directory that is not such, nothing matches, and in one that is,
//     exactly the names that match S ("**/*_test.go", "src/**/*.go");
//   - a plain pattern P of k segments ("docs/*.md", "d000/link.go"): it
//     matches only paths of k components, each matching its segment, so
//     it matches nothing in a directory that is not k-1 deep or whose
//     components do not match the first k-1 segments, and in one that
//     does, exactly the names that match the last segment.
//
// A pattern is plain when every segment matches exactly one path
// component: no "**", no braces (which may hold a "/"), no escapes, and no
// character class that could match "/" (a negated one, or one holding "/"
// or a range across it). Other patterns are matched path by path. A name
// is matched against its segment by a nameMatcher.

// dirScope is a Scope's decision for the entries of one directory.
type dirScope struct {
	s                Scope
	include, exclude []dirGlob
	// all is the decision for every entry that is neither a gitlink nor
	// named with a "/", when the globs take it for the whole directory.
	all uint8
}

// The values of dirScope.all.
const (
	eachEntry uint8 = iota // decide entry by entry
	allIn                  // every entry is selected
	allOut                 // no entry is
)

// dirGlob is one glob's decision for a directory.
type dirGlob struct {
	g    *glob
	how  uint8
	name nameMatcher // the segment a name must match, for byName and byLast
}

const (
	eachPath  uint8 = iota // match each path
	matchAll               // every path under the directory matches
	matchNone              // no path under the directory matches
	byName                 // a path matches when its name matches dirGlob.name
	byLast                 // a path matches exactly when its name matches dirGlob.name
)

// forDir returns the scope's decisions for the entries of the directory
// prefix ("" for the root, else its path and "/").
func (s Scope) forDir(prefix string) dirScope {
	comps := strings.Split(strings.TrimSuffix(prefix, "/"), "/")
	if prefix == "" {
		comps = nil
	}
	d := dirScope{s: s, include: make([]dirGlob, len(s.include)), exclude: make([]dirGlob, len(s.exclude))}
	for i := range s.include {
		d.include[i] = s.include[i].forDir(comps)
	}
	for i := range s.exclude {
		d.exclude[i] = s.exclude[i].forDir(comps)
	}
	d.all = d.whole()
	return d
}

// whole is what selects decides for every entry of the directory, when
// the globs decide it for the whole directory: an exclusion matching all
// of it leaves nothing; with every exclusion matching none of it, an
// inclusion matching all of it (or no inclusion at all) selects
// everything, and inclusions all matching none of it select nothing.
func (d *dirScope) whole() uint8 {
	for _, g := range d.exclude {
		if g.how == matchAll {
			return allOut
		}
	}
	for _, g := range d.exclude {
		if g.how != matchNone {
			return eachEntry
		}
	}
	none := true
	for _, g := range d.include {
		if g.how == matchAll {
			return allIn
		}
		none = none && g.how == matchNone
	}
	switch {
	case len(d.include) == 0:
		return allIn
	case none:
		return allOut
	}
	return eachEntry
}

func (g *glob) forDir(comps []string) dirGlob {
	d := dirGlob{g: g}
	// doublestar reads invalid UTF-8 as U+FFFD, so matching one component
	// can disagree with matching the whole path (FuzzDirScope found
	// "\xe4*/**" against "\x92/0"): decide such paths one by one.
	if !utf8.ValidString(g.pattern) || !allValid(comps) {
		return d
	}
	if q, ok := strings.CutSuffix(g.pattern, "/**"); ok && plain(q) {
		if k := strings.Count(q, "/") + 1; len(comps) >= k {
			d.how = matchNone
			if doublestar.MatchUnvalidated(q, strings.Join(comps[:k], "/")) {
				d.how = matchAll
			}
		}
		return d
	}
	if plain(g.pattern) {
		segs := strings.Split(g.pattern, "/")
		d.how = matchNone
		if len(segs) != len(comps)+1 {
			return d
		}
		for i, c := range comps {
			if !doublestar.MatchUnvalidated(segs[i], c) {
				return d
			}
		}
		d.how, d.name = byLast, compileName(segs[len(comps)])
		return d
	}
	if q, last, ok := cutLast(g.pattern); ok {
		// "Q/**/S" matches the paths of more components than Q has
		// segments whose first components match Q and whose name matches
		// S, "**" matching zero or more; "**/S" every path whose name
		// matches S.
		d.how = matchNone
		if q != "" {
			k := strings.Count(q, "/") + 1
			if len(comps) < k || !doublestar.MatchUnvalidated(q, strings.Join(comps[:k], "/")) {
				return d
			}
		}
		d.how, d.name = byLast, compileName(last)
		return d
	}
	if m, ok := strings.CutPrefix(g.pattern, "**/"); ok {
		if m, ok = strings.CutSuffix(m, "/**"); ok && !strings.Contains(m, "/") && plain(m) {
			d.how, d.name = byName, compileName(m)
			for _, c := range comps {
				if doublestar.MatchUnvalidated(m, c) {
					d.how = matchAll
					break
				}
			}
		}
	}
	return d
}

// cutLast splits "Q/**/S" and "**/S", with Q plain and S one plain
// segment, into Q ("" for "**/S") and S.
func cutLast(p string) (q, last string, ok bool) {
	i := strings.LastIndex(p, "**/")
	if i < 0 || i > 0 && p[i-1] != '/' {
		return "", "", false
	}
	q, last = strings.TrimSuffix(p[:i], "/"), p[i+3:]
	if strings.Contains(last, "/") || !plain(last) || i > 0 && !plain(q) {
		return "", "", false
	}
	return q, last, true
}

// match reports whether the glob matches the entry at path, whose name
// is its last component.
func (d *dirGlob) match(path, name string) bool {
	switch d.how {
	case matchAll:
		return true
	case matchNone:
		return false
	case byName, byLast:
		// A name that does not match M leaves the path unmatched. One that
		// does is checked on the whole path for "**/M/**": doublestar does
		// not match "**/0*/**" against "0", nor "0*/**", though "0*"
		// matches "0".
		if utf8.ValidString(name) {
			if !d.name.match(name) {
				return false
			}
			if d.how == byLast {
				return true
			}
		}
	}
	return d.g.match(path)
}

// nameMatcher matches names (one path component, of valid UTF-8)
// against a plain segment as doublestar.Match does, with a string
// comparison for the common shapes: the segment itself ("go.mod"), a
// suffix ("*.go", "*_test.go"), a prefix ("Make*"), or a part ("*mock*").
// A "*" matches any run of characters, dots included, and a name holds no
// "/". Any other segment is matched by doublestar.
type nameMatcher struct {
	kind uint8
	seg  string // the segment, for nameGlob
	lit  string // the literal part, for the others
}

// The values of nameMatcher.kind.
const (
	nameGlob uint8 = iota
	nameLiteral
	namePrefix
	nameSuffix
	nameContains
)

// compileName returns the matcher of the plain segment seg.
func compileName(seg string) nameMatcher {
	m := nameMatcher{seg: seg}
	wild := func(s string) bool { return strings.ContainsAny(s, "*?[") }
	switch {
	case !wild(seg):
		m.kind, m.lit = nameLiteral, seg
	case len(seg) >= 2 && seg[0] == '*' && seg[len(seg)-1] == '*' && !wild(seg[1:len(seg)-1]):
		m.kind, m.lit = nameContains, seg[1:len(seg)-1]
	case seg[0] == '*' && !wild(seg[1:]):
		m.kind, m.lit = nameSuffix, seg[1:]
	case seg[len(seg)-1] == '*' && !wild(seg[:len(seg)-1]):
		m.kind, m.lit = namePrefix, seg[:len(seg)-1]
	}
	return m
}

// match reports whether the name matches the segment.
func (m *nameMatcher) match(name string) bool {
	switch m.kind {
	case nameLiteral:
		return name == m.lit
	case namePrefix:
		return strings.HasPrefix(name, m.lit)
	case nameSuffix:
		return strings.HasSuffix(name, m.lit)
	case nameContains:
		return strings.Contains(name, m.lit)
	}
	return doublestar.MatchUnvalidated(m.seg, name)
}

// selects is s.Selects(e) for an entry of the directory, named name.
func (d *dirScope) selects(e Entry, name string) bool {
	if e.Mode == ModeGitlink || strings.IndexByte(name, '/') >= 0 {
		// A gitlink may be selected for what lies beneath it; a name
		// holding "/" (a tree git would not write) is more than one
		// component.
		return d.s.Selects(e)
	}
	switch d.all {
	case allIn:
		return true
	case allOut:
		return false
	}
	for i := range d.exclude {
		if d.exclude[i].match(e.Path, name) {
			return false
		}
	}
	if len(d.include) == 0 {
		return true
	}
	for i := range d.include {
		if d.include[i].match(e.Path, name) {
			return true
		}
	}
	return false
}

// plain reports whether every "/"-separated segment of the valid pattern p
// matches exactly one path component.
func plain(p string) bool {
	if p == "" || strings.Contains(p, "**") || strings.ContainsAny(p, `{}\`) {
		return false
	}
	for i := 0; i < len(p); i++ {
		if p[i] != '[' {
			continue
		}
		end := strings.IndexByte(p[i+1:], ']')
		if end < 0 || !plainClass(p[i+1:i+1+end]) {
			return false
		}
		i += end + 1
	}
	return true
}

// plainClass reports whether a character class (what lies between "[" and
// "]") cannot match "/": it is not negated, and neither holds "/" (not
// even as the end of a range, which would split the pattern's segments at
// it) nor a range across it.
func plainClass(c string) bool {
	if c == "" || c[0] == '!' || c[0] == '^' || strings.IndexByte(c, '/') >= 0 {
		return false
	}
	last := rune(-1)
	for i := 0; i < len(c); {
		r, n := utf8.DecodeRuneInString(c[i:])
		i += n
		if r == '-' && last >= 0 && i < len(c) {
			hi, n := utf8.DecodeRuneInString(c[i:])
			i += n
			if last <= '/' && '/' <= hi {
				return false
			}
			last = -1
			continue
		}
		if r == '/' {
			return false
		}
		last = r
	}
	return true
}

func allValid(comps []string) bool {
	for _, c := range comps {
		if !utf8.ValidString(c) {
			return false
		}
	}
	return true
}

// prunes reports whether the scope selects nothing beneath the directory
// whose path components are comps, at any depth: the walk then need not
// read the tree. It answers true only when that is certain: an exclusion
// matches every path beneath (as forDir decides it), or no inclusion can
// match any (mayMatchBeneath). The whole tree prunes nothing.
func (s Scope) prunes(comps []string) bool {
	if s.Whole() {
		return false
	}
	for i := range s.exclude {
		if s.exclude[i].forDir(comps).how == matchAll {
			return true
		}
	}
	if len(s.include) == 0 {
		return false
	}
	for i := range s.include {
		if mayMatchBeneath(s.include[i].pattern, comps) {
			return false
		}
	}
	return true
}

// mayMatchBeneath reports whether pattern may match a path strictly
// beneath the directory of components comps, or a gitlink there
// (couldMatchUnder). It is false only for a pattern whose every segment is
// "**" or plain, all of valid UTF-8 as comps are: such a segment matches
// exactly one component, so a path beneath matches only if comps match the
// pattern's first segments one by one, or a "**" comes first, and the
// pattern has more segments than comps. Any other pattern may match.
func mayMatchBeneath(pattern string, comps []string) bool {
	if !utf8.ValidString(pattern) || !allValid(comps) || strings.ContainsAny(pattern, `{}\`) {
		return true
	}
	segs := strings.Split(pattern, "/")
	for _, sg := range segs {
		if sg != "**" && !plain(sg) {
			return true
		}
	}
	return couldMatchUnder(pattern, strings.Join(comps, "/"))
}
