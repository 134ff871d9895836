package sarif

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/go-json-experiment/json"
	gosarif "github.com/owenrumney/go-sarif/v2/sarif"
)

// baselineStates maps status (§9) to baselineState (§3.27.24); regressed
// has no native value and is also kept in agc/status.
var baselineStates = map[string]string{agc.StatusNew: "new", agc.StatusStillOpen: "unchanged", agc.StatusRegressed: "new"}

func (w *runWriter) result(f *agc.Finding, xf xFinding) (*gosarif.Result, error) {
	x, hasX := xf.rec, xf.ok
	level := findingLevel(f, xf)
	res := &gosarif.Result{
		RuleID:    strPtr(f.Class),
		RuleIndex: uintPtr(w.ruleIndex[f.Class]),
		Kind:      strPtr("fail"),
		Level:     &level,
		Message:   gosarif.Message{Text: strPtr(f.What)},
	}
	if bs, ok := baselineStates[f.Status]; ok {
		res.BaselineState = strPtr(bs)
	}
	loc, lineHash := w.location(f.Location, f.ID, x, hasX, patchEdits(f.Remedy))
	res.Locations = []*gosarif.Location{loc}
	res.PartialFingerprints = map[string]any{fingerprintKey: f.ID, lineHashKey: lineHash}
	res.Fingerprints = map[string]any{fingerprintKey: f.ID}
	if hasX {
		for k, v := range x.Partial {
			res.PartialFingerprints[k] = v
		}
		for k, v := range x.Fingerprints {
			res.Fingerprints[k] = v
		}
	}
	res.Fixes = w.fixes(f, x, hasX)
	props, err := w.findingProps(f)
	if err != nil {
		return nil, err
	}
	res.Properties = props
	return res, nil
}

func patchEdits(r agc.Remedy) []agc.Edit {
	if r.Kind == agc.RemedyPatch {
		return r.Edits
	}
	return nil
}

func (w *runWriter) findingProps(f *agc.Finding) (gosarif.Properties, error) {
	p := gosarif.Properties{propID: f.ID, propLocation: f.Location, propWhy: f.Why, propSeverity: f.Severity, propStatus: f.Status}
	remedy, err := w.remedyJSON(f.Remedy)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", propRemedy, err)
	}
	check, err := w.checkJSON(f.Check)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", propCheck, err)
	}
	p[propRemedy], p[propCheck] = remedy, check
	if len(f.Unknown) > 0 {
		p[propUnknown] = rawJSON(f.Unknown)
	}
	return p, nil
}

// plainRemedy is a remedy with only string members, which a linter's
// findings share (the same delegate per rule): its JSON is kept per run.
type plainRemedy struct{ kind, tool, run, role, authority, ask string }

func (w *runWriter) remedyJSON(r agc.Remedy) (rawCompact, error) {
	plain := r.Input == nil && r.Edits == nil && r.Options == nil && r.Applied == nil && r.Unknown == nil
	return cachedJSON(w.remedies, plainRemedy{r.Kind, r.Tool, r.Run, r.Role, r.Authority, r.Ask}, plain, r)
}

type plainCheck struct{ kind, run, condition string }

func (w *runWriter) checkJSON(c agc.Check) (rawCompact, error) {
	return cachedJSON(w.checks, plainCheck{c.Kind, c.Run, c.Condition}, c.Unknown == nil, c)
}

// cachedJSON is v's JSON, kept in cache under key when v is plain (key
// then says all of it).
func cachedJSON[K comparable](cache map[K]rawCompact, key K, plain bool, v any) (rawCompact, error) {
	if raw, ok := cache[key]; ok && plain {
		return raw, nil
	}
	raw, err := json.Marshal(v, json.Deterministic(true))
	if err != nil {
		return nil, err
	}
	if plain {
		cache[key] = raw
	}
	return raw, nil
}

// placed is where a result is: what location writes, as values.
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

// location is place as a go-sarif location, and the line hash.
func (w *runWriter) location(where, id string, x xRecord, hasX bool, edits []agc.Edit) (*gosarif.Location, string) {
	pl := w.place(where, id, x, hasX, edits, true)
	loc := &gosarif.Location{}
	if pl.hasLogical {
		ll := &gosarif.LogicalLocation{Name: strPtr(pl.logical)}
		if pl.hasFQN {
			ll.FullyQualifiedName = strPtr(pl.fqn)
		}
		loc.LogicalLocations = []*gosarif.LogicalLocation{ll}
	}
	region := toGoRegion(pl.region)
	if pl.regionProp != "" {
		region.Properties = gosarif.Properties{propRegion: pl.regionProp}
	}
	loc.PhysicalLocation = &gosarif.PhysicalLocation{
		ArtifactLocation: &gosarif.ArtifactLocation{URI: strPtr(pl.uri), URIBaseId: strPtr(SrcRoot)},
		Region:           region,
	}
	if pl.placeholder {
		loc.Properties = gosarif.Properties{propPlaceholder: true}
	}
	return loc, pl.lineHash
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

func toGoRegion(x xRegion) *gosarif.Region {
	r := &gosarif.Region{}
	set := func(dst **int, v int) {
		if v > 0 {
			*dst = intPtr(v)
		}
	}
	set(&r.StartLine, x.StartLine)
	set(&r.StartColumn, x.StartColumn)
	set(&r.EndLine, x.EndLine)
	set(&r.EndColumn, x.EndColumn)
	if x.CharOffset != nil {
		r.CharOffset, r.CharLength = intPtr(*x.CharOffset), intPtr(x.CharLength)
	}
	if x.Snippet != "" {
		r.Snippet = &gosarif.ArtifactContent{Text: strPtr(x.Snippet)}
	}
	return r
}

// fixes: the fixes of the SARIF origin when every change can be written,
// else the patch remedy's edits when each find text is found in the
// sources. A patch that cannot be placed is kept in agc/remedy only.
func (w *runWriter) fixes(f *agc.Finding, x xRecord, hasX bool) []*gosarif.Fix {
	if hasX && len(x.Fixes) > 0 {
		return fixesFromX(x.Fixes)
	}
	edits := patchEdits(f.Remedy)
	if len(edits) == 0 {
		return nil
	}
	var changes []*gosarif.ArtifactChange
	byPath := map[string]*gosarif.ArtifactChange{}
	for _, e := range edits {
		if !relPath(e.Path) {
			return nil
		}
		rg, ok := w.src.Find(e.Path, e.Find)
		if !ok {
			return nil
		}
		c := byPath[e.Path]
		if c == nil {
			c = &gosarif.ArtifactChange{ArtifactLocation: gosarif.ArtifactLocation{URI: strPtr(encodeURI(e.Path)), URIBaseId: strPtr(SrcRoot)}}
			byPath[e.Path] = c
			changes = append(changes, c)
		}
		c.Replacements = append(c.Replacements, &gosarif.Replacement{
			DeletedRegion:   *toGoRegion(*toXRegionAny(rg)),
			InsertedContent: &gosarif.ArtifactContent{Text: strPtr(e.Replace)},
		})
	}
	return []*gosarif.Fix{{Description: &gosarif.Message{Text: strPtr("Apply the patch remedy of " + f.ID + ".")}, ArtifactChanges: changes}}
}

func fixesFromX(xs []xFix) []*gosarif.Fix {
	var out []*gosarif.Fix
	for _, xf := range xs {
		fix := &gosarif.Fix{}
		if xf.Description != "" {
			fix.Description = &gosarif.Message{Text: strPtr(xf.Description)}
		}
		for _, xc := range xf.Changes {
			if !relPath(xc.URI) {
				return nil
			}
			c := &gosarif.ArtifactChange{ArtifactLocation: gosarif.ArtifactLocation{URI: strPtr(encodeURI(xc.URI)), URIBaseId: strPtr(SrcRoot)}}
			for _, xr := range xc.Replacements {
				if xr.Deleted.StartLine == 0 && xr.Deleted.CharOffset == nil {
					return nil
				}
				c.Replacements = append(c.Replacements, &gosarif.Replacement{
					DeletedRegion:   *toGoRegion(xr.Deleted),
					InsertedContent: &gosarif.ArtifactContent{Text: strPtr(xr.Inserted)},
				})
			}
			fix.ArtifactChanges = append(fix.ArtifactChanges, c)
		}
		out = append(out, fix)
	}
	return out
}

// otherResults writes the results of the response's x-sarif member: the
// SARIF results that did not become findings (other kinds, accepted
// suppressions, absent).
func (w *runWriter) otherResults() []*gosarif.Result {
	var m struct {
		X xResponse `json:"agc-action/sarif"`
	}
	if u := w.resp.Unknown; len(u) > 0 {
		_ = json.Unmarshal(u, &m)
	}
	xr := m.X
	var out []*gosarif.Result
	for i, x := range xr.Results {
		kind, level := cmp.Or(x.Kind, "fail"), cmp.Or(x.Level, "warning")
		res := &gosarif.Result{
			RuleID:        strPtr(x.RuleID),
			RuleIndex:     uintPtr(w.ruleIndex[x.RuleID]),
			Kind:          &kind,
			Level:         &level,
			Message:       gosarif.Message{Text: strPtr(cmp.Or(x.Message, "Rule "+x.RuleID+" reported a result."))},
			BaselineState: strPtr(cmp.Or(x.BaselineState, "new")),
		}
		where := cmp.Or(x.URI, ".")
		loc, lh := w.location(where, fmt.Sprintf("%s/other/%d", w.resp.Gate.ID, i), x, true, nil)
		res.Locations = []*gosarif.Location{loc}
		res.PartialFingerprints = map[string]any{lineHashKey: lh}
		for k, v := range x.Partial {
			res.PartialFingerprints[k] = v
		}
		if len(x.Fingerprints) > 0 {
			res.Fingerprints = map[string]any{}
			for k, v := range x.Fingerprints {
				res.Fingerprints[k] = v
			}
		}
		if x.Suppressed {
			res.Suppressions = []*gosarif.Suppression{suppression(w.resp.Gate.ID, i, loc)}
		}
		res.Fixes = fixesFromX(x.Fixes)
		res.Properties = gosarif.Properties{propOther: true}
		out = append(out, res)
	}
	return out
}

// suppression is an accepted external suppression (§3.35). go-sarif writes
// every member of its Suppression type, null included, and the schema
// rejects null; so each is given a value: a GUID derived from the gate and
// the result's position, and the result's own location.
func suppression(gate string, i int, loc *gosarif.Location) *gosarif.Suppression {
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s/suppression/%d", gate, i)))
	h := hex.EncodeToString(sum[:16])
	guid := h[0:8] + "-" + h[8:12] + "-5" + h[13:16] + "-8" + h[17:20] + "-" + h[20:32]
	return &gosarif.Suppression{
		Kind:          "external",
		Status:        strPtr("accepted"),
		Location:      loc,
		Guid:          &guid,
		Justification: strPtr("Accepted in the log this result was converted from."),
	}
}
