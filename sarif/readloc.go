package sarif

import (
	"net/url"
	"path"
	"strings"
	"unicode/utf8"
)

func (rd *reader) primaryLocation(m jobj, base at, ctx *runCtx) *Loc {
	lb := base.in("locations")
	locs := rd.arr(m, base, "locations")
	if len(locs) == 0 {
		return nil
	}
	p := lb.idx(0)
	if locs[0].kind() != '{' {
		rd.lint(p, "a location is an object, not %s; ignored", locs[0].kindName())
		return nil
	}
	lm := rd.index(locs[0])
	loc := &Loc{Props: rd.props(lm, p)}
	if pl := rd.obj(lm, p, "physicalLocation"); pl != nil {
		pp := p.in("physicalLocation")
		if al := rd.obj(pl, pp, "artifactLocation"); al != nil {
			loc.Path, loc.Relative = rd.artifactPath(al, pp.in("artifactLocation"), ctx)
		}
		if rg := rd.obj(pl, pp, "region"); rg != nil {
			loc.Region = rd.region(rg, pp.in("region"))
		}
	}
	lls := rd.arr(lm, p, "logicalLocations")
	if len(lls) > 0 {
		if lls[0].kind() == '{' {
			ll := rd.index(lls[0])
			llp := p.in("logicalLocations").in("0")
			loc.Logical = rd.str(ll, llp, "fullyQualifiedName")
			if loc.Logical == "" {
				loc.Logical = rd.str(ll, llp, "name")
			}
		}
	}
	if ph, _ := loc.Props[propPlaceholder].(bool); ph {
		loc.Path, loc.Relative, loc.Region = "", false, nil
	}
	if loc.Region != nil && loc.Region.Origin != "" {
		loc.Region = nil
	}
	if loc.Path == "" && loc.Logical == "" {
		return nil
	}
	return loc
}

// artifactPath resolves an artifactLocation (§3.4) through artifacts[index]
// and uriBaseId/originalUriBaseIds (§3.14.14), percent-decodes it and says
// whether it is relative to the source root.
func (rd *reader) artifactPath(al jobj, base at, ctx *runCtx) (string, bool) {
	uri := rd.istr(al, base, "uri")
	baseID := rd.istr(al, base, "uriBaseId")
	if uri == "" {
		if i, ok := rd.integer(al, base, "index"); ok {
			if i < len(ctx.artifacts) {
				if a := ctx.artifacts[i]; a.kind() == '{' {
					a := rd.index(a)
					ab := at{base: ctx.run.Pointer}.in("artifacts").idx(i)
					if l := rd.obj(a, ab, "location"); l != nil {
						uri = rd.str(l, ab.in("location"), "uri")
						baseID = rd.str(l, ab.in("location"), "uriBaseId")
					}
				}
			} else {
				rd.lint(base.in("index"), "artifact index %d is out of range (%d artifacts)", i, len(ctx.artifacts))
			}
		}
	}
	if uri == "" {
		return "", false
	}
	if baseID != "" && !hasScheme(uri) && !strings.HasPrefix(uri, "/") {
		uri = rd.applyBase(uri, baseID, ctx, 0)
	}
	return rd.normalizePath(uri, base.in("uri"), ctx.opts.Root)
}

// applyBase prefixes uri with the URI its base id stands for, when the log
// defines one; an undefined base id (the usual %SRCROOT%) is the source root.
func (rd *reader) applyBase(uri, id string, ctx *runCtx, depth int) string {
	bv := ctx.bases.get(id)
	if bv.kind() != '{' || depth > 8 {
		return uri
	}
	b := rd.index(bv)
	bb := at{base: ctx.run.Pointer}.in("originalUriBaseIds").in(id)
	prefix := rd.str(b, bb, "uri")
	if prefix == "" {
		return uri
	}
	if !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	joined := prefix + uri
	if parent := rd.str(b, bb, "uriBaseId"); parent != "" && !hasScheme(prefix) && !strings.HasPrefix(prefix, "/") {
		return rd.applyBase(joined, parent, ctx, depth+1)
	}
	return joined
}

// hasScheme reports whether uri starts with a scheme (RFC 3986 §3.1:
// ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":") that is not a drive.
// It and hasDrive are read for every result, so they match by hand what
// `^[A-Za-z][A-Za-z0-9+.\-]*:` and `^/?[A-Za-z]:/` match (TestURIMatchers).
func hasScheme(uri string) bool {
	if uri == "" || !isAlpha(uri[0]) {
		return false
	}
	i := 1
	for i < len(uri) && (isAlpha(uri[i]) || uri[i] >= '0' && uri[i] <= '9' || uri[i] == '+' || uri[i] == '.' || uri[i] == '-') {
		i++
	}
	return i < len(uri) && uri[i] == ':' && !hasDrive(uri)
}

// hasDrive reports whether p starts with a drive letter: C:/ or /C:/.
func hasDrive(p string) bool {
	p = strings.TrimPrefix(p, "/")
	return len(p) >= 3 && isAlpha(p[0]) && p[1] == ':' && p[2] == '/'
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// normalizePath turns a URI reference into a slash path: relative to the
// root when possible, absolute otherwise; other schemes are kept as URIs.
func (rd *reader) normalizePath(uri string, p at, root string) (string, bool) {
	dec, err := url.PathUnescape(uri)
	switch {
	case err != nil:
		rd.lint(p, "URI %q is not validly percent-encoded; used as written", uri)
		dec = uri
	case !utf8.ValidString(dec):
		// A path is text in AGC: bytes that are not UTF-8 stay encoded.
		rd.lint(p, "URI %q decodes to bytes that are not UTF-8; used as written", uri)
		dec = uri
	}
	if strings.ContainsRune(dec, '\\') {
		rd.lint(p, "URI %q uses backslashes; read as slashes", uri)
		dec = strings.ReplaceAll(dec, "\\", "/")
	}
	switch {
	case hasFileScheme(dec):
		dec = fileURIPath(dec[len("file:"):])
	case hasScheme(dec):
		return dec, false
	}
	if hasDrive(dec) {
		dec = strings.TrimPrefix(dec, "/")
		return rd.absolute(dec, p, root)
	}
	if strings.HasPrefix(dec, "/") {
		return rd.absolute(path.Clean(dec), p, root)
	}
	clean := path.Clean(dec)
	if clean == "." {
		rd.lint(p, "URI %q names the source root, not a file", uri)
		return clean, false
	}
	if clean == ".." || strings.HasPrefix(clean, "../") {
		rd.lint(p, "relative path %q leaves the source root; kept as written and not read", dec)
		return clean, false
	}
	return clean, true
}

// hasFileScheme reports whether strings.ToLower(uri) starts with "file:",
// without lowering all of uri when its start is ASCII.
func hasFileScheme(uri string) bool {
	for i := 0; i < len(uri) && i < len("file:"); i++ {
		if uri[i] >= utf8.RuneSelf {
			return strings.HasPrefix(strings.ToLower(uri), "file:")
		}
	}
	return len(uri) >= len("file:") && strings.EqualFold(uri[:len("file:")], "file:")
}

// fileURIPath is the path of a file: URI without its scheme: file:///a,
// file:////a (four slashes) and file://localhost/a are all /a; a host
// other than localhost is kept as //host/a.
func fileURIPath(rest string) string {
	if !strings.HasPrefix(rest, "//") {
		return rest
	}
	rest = rest[2:]
	switch {
	case strings.HasPrefix(rest, "/"):
		return "/" + strings.TrimLeft(rest, "/")
	case strings.HasPrefix(strings.ToLower(rest), "localhost/"):
		return rest[len("localhost"):]
	}
	return "//" + rest
}

func (rd *reader) absolute(abs string, p at, root string) (string, bool) {
	root = strings.TrimSuffix(root, "/")
	if root != "" && strings.HasPrefix(abs, root+"/") {
		return abs[len(root)+1:], true
	}
	rd.lint(p, "absolute path %q is outside the source root; kept absolute and not read", abs)
	return abs, false
}

// region reads a §3.30 region. A region must have a line or an offset
// (§3.30.1); a snippet alone does not place it.
func (rd *reader) region(m jobj, base at) *Region {
	r := &Region{CharOffset: -1}
	r.StartLine, _ = rd.integer(m, base, "startLine")
	r.StartColumn, _ = rd.integer(m, base, "startColumn")
	r.EndLine, _ = rd.integer(m, base, "endLine")
	r.EndColumn, _ = rd.integer(m, base, "endColumn")
	if off, ok := rd.integer(m, base, "charOffset"); ok {
		r.CharOffset = off
		r.CharLength, _ = rd.integer(m, base, "charLength")
	}
	if s := rd.obj(m, base, "snippet"); s != nil {
		r.Snippet = rd.str(s, base.in("snippet"), "text")
	}
	if pr := rd.props(m, base); pr != nil {
		r.Origin, _ = pr[propRegion].(string)
	}
	if r.EndLine != 0 && r.EndLine < r.StartLine {
		rd.lint(base.in("endLine"), "endLine %d is before startLine %d; ignored", r.EndLine, r.StartLine)
		r.EndLine = 0
	}
	if r.StartLine == 0 && r.CharOffset < 0 {
		if r.Snippet != "" {
			rd.lint(base, "a region with only a snippet does not place the result (§3.30.1); the snippet is kept as the text and the line dropped")
		} else {
			rd.lint(base, "a region without startLine or charOffset (§3.30.1); ignored")
		}
	}
	return r
}

func (rd *reader) fixes(m jobj, base at, ctx *runCtx) []Fix {
	var out []Fix
	rd.objects(m, base, "fixes", func(fm jobj, p at) {
		f := Fix{Pointer: p.String()}
		if d := rd.obj(fm, p, "description"); d != nil {
			f.Description = rd.str(d, p.in("description"), "text")
		}
		rd.objects(fm, p, "artifactChanges", func(cm jobj, cp at) {
			if c, ok := rd.change(cm, cp, ctx); ok {
				f.Changes = append(f.Changes, c)
			}
		})
		if len(f.Changes) > 0 {
			out = append(out, f)
		} else {
			rd.lint(p, "a fix without usable artifact changes; ignored")
		}
	})
	return out
}

func (rd *reader) change(m jobj, base at, ctx *runCtx) (Change, bool) {
	c := Change{}
	if al := rd.obj(m, base, "artifactLocation"); al != nil {
		c.Path, c.Relative = rd.artifactPath(al, base.in("artifactLocation"), ctx)
	}
	if c.Path == "" {
		rd.lint(base.in("artifactLocation"), "an artifact change without a URI; ignored")
		return c, false
	}
	rd.objects(m, base, "replacements", func(rm jobj, p at) {
		dr := rd.obj(rm, p, "deletedRegion")
		if dr == nil {
			rd.lint(p, "a replacement without deletedRegion; ignored")
			return
		}
		rep := Replacement{Deleted: *rd.region(dr, p.in("deletedRegion"))}
		if ic := rd.obj(rm, p, "insertedContent"); ic != nil {
			rep.Inserted = rd.str(ic, p.in("insertedContent"), "text")
		}
		c.Replacements = append(c.Replacements, rep)
	})
	return c, len(c.Replacements) > 0
}
