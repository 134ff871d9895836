package sarif

import (
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"path"
	"strings"

	"github.com/agcgate/agc-action/agc"
)

// placed is where a result is: what placed writes, as values.
type placed struct {
	uri         string  // the artifact, percent-encoded
	region      xRegion // its members greater than 0 are written, and charOffset when not nil
	regionProp  string  // the region's agc/region property, when not ""
	placeholder bool    // the stand-in artifact of a finding GitHub cannot place
	logical     string  // the logical location's name, when hasLogical
	fqn         string  // and its fully qualified name, when hasFQN
	hasLogical  bool
	hasFQN      bool
	lineHash    string
}

// place places a finding. A relative path gets a physical location with
// a region: the one its SARIF origin had, else one resolved from the
// sources (a patch's find text, then the symbol), else line 1 marked
// synthesized. Anything else (a tool-call field, an absolute path) gets a
// stand-in physical location, since GitHub needs one, and a logical
// location naming it. The line hash is GitHub's when the line is known,
// else a hash of the finding id so that GitHub still matches the alert;
// it is left "" when !needHash (the result's own hash replaces it).
func (w *runWriter) place(where, id string, x xRecord, hasX bool, edits []agc.Edit, needHash bool) placed {
	p, logical, pos := w.splitLocation(where, x, hasX)
	var pl placed
	if logical != "" {
		pl.logical, pl.hasLogical = logical, true
		if logical != where {
			pl.fqn, pl.hasFQN = where, true
		}
	}
	if !relPath(p) {
		pl.uri = encodeURI(placeholderPath(w.resp.Gate.ID))
		pl.region, pl.regionProp = xRegion{StartLine: 1}, regionSynthesized
		pl.placeholder = true
		if !pl.hasLogical {
			pl.logical, pl.hasLogical = where, true
		}
		if needHash {
			pl.lineHash = idHash(id)
		}
		return pl
	}
	switch {
	case hasX && x.Region != nil && x.Region.StartLine > 0:
		pl.region = *x.Region
	case pos.Line > 0:
		pl.region = xRegion{StartLine: pos.Line, StartColumn: pos.Column, EndLine: pos.EndLine, EndColumn: pos.EndColumn}
	default:
		if rg, ok := w.resolve(p, logical, edits); ok {
			pl.region, pl.regionProp = *toXRegionAny(rg), regionResolved
		} else {
			pl.region, pl.regionProp = xRegion{StartLine: 1}, regionSynthesized
		}
	}
	pl.uri = encodeURI(p)
	if !needHash {
		return pl
	}
	if pl.regionProp != regionSynthesized {
		if h, ok := w.src.LineHash(p, pl.region.StartLine); ok {
			pl.lineHash = h
			return pl
		}
	}
	pl.lineHash = idHash(id)
	return pl
}

// placeholderPath is the stand-in artifact of findings GitHub cannot place.
func placeholderPath(gate string) string { return ".agc/" + agc.Slug(gate) }

// idHash stands in for primaryLocationLineHash when no line is known: 16
// hex digits of the SHA-256 of the finding id, then ":1".
func idHash(id string) string {
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:8]) + ":1"
}

// splitLocation: the path, logical part and position of a finding's
// location (agc.ParseLocation).
func (w *runWriter) splitLocation(where string, x xRecord, hasX bool) (string, string, agc.Position) {
	if hasX {
		return x.URI, x.Logical, agc.Position{}
	}
	switch w.resp.Subject.Kind {
	case agc.SubjectToolCall, agc.SubjectSession:
		return "", where, agc.Position{}
	}
	place, pos := agc.ParseLocation(where)
	p, sym, _ := strings.Cut(place, "#")
	// A bare name such as "Bash.command" or "README.md" is a file only when
	// the source root has it or a line in it is named; a name with a
	// directory is taken as a path.
	if !relPath(p) || pos.Line == 0 && !strings.Contains(p, "/") && !w.src.Exists(p) {
		return "", where, agc.Position{}
	}
	return p, sym, pos
}

func (w *runWriter) resolve(p, sym string, edits []agc.Edit) (Region, bool) {
	for _, e := range edits {
		if e.Path == p {
			if rg, ok := w.src.Find(p, e.Find); ok {
				return rg, true
			}
		}
	}
	if sym != "" {
		return w.src.FindSymbol(p, sym)
	}
	return Region{}, false
}

func toXRegionAny(r Region) *xRegion {
	r.Origin = ""
	return orEmpty(toXRegion(&r))
}

// relPath reports whether p can be an artifact URI relative to the source
// root: not empty, not absolute, no scheme, not leaving the root.
func relPath(p string) bool {
	if p == "" || p == "." || strings.HasPrefix(p, "/") || hasScheme(p) || hasDrive(p) || strings.ContainsRune(p, '\\') {
		return false
	}
	c := path.Clean(p)
	return c == p && c != ".." && !strings.HasPrefix(c, "../")
}

// encodeURI percent-encodes a relative path for artifactLocation.uri
// (§3.4.3: a URI reference, RFC 3986).
func encodeURI(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// placed writes the location pl.
func (e *encoder) placed(pl *placed) {
	e.open()
	e.name("physicalLocation")
	e.open()
	e.artifact(pl.uri)
	e.name("region")
	e.region(&pl.region, pl.regionProp)
	e.close()
	if pl.hasLogical {
		e.name("logicalLocations")
		e.array(1, func(int) {
			e.open()
			e.name("name")
			e.quote(pl.logical)
			if pl.hasFQN {
				e.name("fullyQualifiedName")
				e.quote(pl.fqn)
			}
			e.close()
		})
	}
	if pl.placeholder {
		e.name("properties")
		e.open()
		e.name(propPlaceholder)
		e.b = append(e.b, "true"...)
		e.close()
	}
	e.close()
}

// artifact writes the artifactLocation of uri, percent-encoded.
func (e *encoder) artifact(uri string) {
	e.name("artifactLocation")
	e.open()
	e.name("uri")
	e.quote(uri)
	e.name("uriBaseId")
	e.quote(SrcRoot)
	e.close()
}

// region writes r: its members greater than 0, charOffset and charLength
// when it has an offset, the snippet when not "", and the agc/region
// property prop when not "".
func (e *encoder) region(r *xRegion, prop string) {
	e.open()
	for _, m := range [...]struct {
		n string
		v int
	}{{"startLine", r.StartLine}, {"startColumn", r.StartColumn}, {"endLine", r.EndLine}, {"endColumn", r.EndColumn}} {
		if m.v > 0 {
			e.int(m.n, m.v, false)
		}
	}
	if r.CharOffset != nil {
		e.int("charOffset", *r.CharOffset, false)
		e.int("charLength", r.CharLength, false)
	}
	if r.Snippet != "" {
		e.text("snippet", r.Snippet)
	}
	if prop != "" {
		e.name("properties")
		e.open()
		e.name(propRegion)
		e.quote(prop)
		e.close()
	}
	e.close()
}

// writableFixes are the fixes of a SARIF origin that GitHub takes: none
// when a change is not on a relative path or a replacement has no region;
// a fix without changes, or with a change without replacements, is left
// out (the schema wants at least one of each).
func writableFixes(xs []xFix) []xFix {
	var out []xFix
	for _, f := range xs {
		ok := len(f.Changes) > 0
		for _, c := range f.Changes {
			if !relPath(c.URI) {
				return nil
			}
			for _, r := range c.Replacements {
				if r.Deleted.StartLine == 0 && r.Deleted.CharOffset == nil {
					return nil
				}
			}
			ok = ok && len(c.Replacements) > 0
		}
		if ok {
			out = append(out, f)
		}
	}
	return out
}

// patchFixes is the fix of a patch remedy when each find text is found in
// the sources. A patch that cannot be placed is kept in agc/remedy only.
func (w *runWriter) patchFixes(f *agc.Finding) []xFix {
	edits := patchEdits(f.Remedy)
	if len(edits) == 0 {
		return nil
	}
	fix := xFix{Description: "Apply the patch remedy of " + f.ID + "."}
	at := map[string]int{} // index in fix.Changes of each path
	for _, ed := range edits {
		if !relPath(ed.Path) {
			return nil
		}
		rg, ok := w.src.Find(ed.Path, ed.Find)
		if !ok {
			return nil
		}
		i, ok := at[ed.Path]
		if !ok {
			i, at[ed.Path] = len(fix.Changes), len(fix.Changes)
			fix.Changes = append(fix.Changes, xChange{URI: ed.Path})
		}
		fix.Changes[i].Replacements = append(fix.Changes[i].Replacements, xReplacement{Deleted: *toXRegionAny(rg), Inserted: ed.Replace})
	}
	return []xFix{fix}
}

// fixes writes a result's fixes, when it has any.
func (e *encoder) fixes(fixes []xFix) {
	if len(fixes) == 0 {
		return
	}
	e.name("fixes")
	e.array(len(fixes), func(i int) {
		f := &fixes[i]
		e.open()
		if f.Description != "" {
			e.text("description", f.Description)
		}
		e.name("artifactChanges")
		e.array(len(f.Changes), func(j int) {
			c := &f.Changes[j]
			e.open()
			e.artifact(encodeURI(c.URI))
			e.name("replacements")
			e.array(len(c.Replacements), func(k int) {
				r := &c.Replacements[k]
				e.open()
				e.name("deletedRegion")
				e.region(&r.Deleted, "")
				e.text("insertedContent", r.Inserted)
				e.close()
			})
			e.close()
		})
		e.close()
	})
}
