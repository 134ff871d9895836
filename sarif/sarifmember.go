package sarif

// The "agc-action/sarif" member keeps what AGC has no field for
// (docs/sarif-mapping.md); this file holds its types, and
// sarifmember_encode.go writes it.

// xRecord is the "agc-action/sarif" member of a finding converted from a
// SARIF result (and, in the response's member's results, of a result that
// did not become a finding). It keeps what AGC has no field for, so that
// SARIF → AGC → SARIF gives back each result's level, location and fixes.
type xRecord struct {
	RuleID        string            `json:"ruleId,omitzero"`  // results that are not findings
	Message       string            `json:"message,omitzero"` // results that are not findings
	Kind          string            `json:"kind,omitzero"`    // when not "fail"
	Level         string            `json:"level"`
	URI           string            `json:"uri,omitzero"` // the artifact path, relative to the source root when it can be
	Region        *xRegion          `json:"region,omitzero"`
	Logical       string            `json:"logical,omitzero"`
	Fixes         []xFix            `json:"fixes,omitzero"`
	Suppressed    bool              `json:"suppressed,omitzero"`
	BaselineState string            `json:"baselineState,omitzero"`
	Partial       map[string]string `json:"partialFingerprints,omitzero"`
	Fingerprints  map[string]string `json:"fingerprints,omitzero"`
}

type xRegion struct {
	StartLine   int    `json:"startLine,omitzero"`
	StartColumn int    `json:"startColumn,omitzero"`
	EndLine     int    `json:"endLine,omitzero"`
	EndColumn   int    `json:"endColumn,omitzero"`
	CharOffset  *int   `json:"charOffset,omitzero"`
	CharLength  int    `json:"charLength,omitzero"`
	Snippet     string `json:"snippet,omitzero"`
}

type xFix struct {
	Description string    `json:"description,omitzero"`
	Changes     []xChange `json:"changes"`
}

type xChange struct {
	URI          string         `json:"uri"`
	Replacements []xReplacement `json:"replacements"`
}

type xReplacement struct {
	Deleted  xRegion `json:"deleted"`
	Inserted string  `json:"inserted"`
}

// xResponse is the response-level "x-sarif" member.
type xResponse struct {
	Results []xRecord `json:"results,omitzero"`
}

func toXRegion(r *Region) *xRegion {
	if r == nil || r.Origin != "" || (r.StartLine == 0 && r.CharOffset < 0 && r.Snippet == "") {
		return nil
	}
	x := &xRegion{StartLine: r.StartLine, StartColumn: r.StartColumn, EndLine: r.EndLine, EndColumn: r.EndColumn, Snippet: r.Snippet}
	if r.CharOffset >= 0 {
		off := r.CharOffset
		x.CharOffset, x.CharLength = &off, r.CharLength
	}
	return x
}

func toXFixes(fixes []Fix) []xFix {
	var out []xFix
	for _, f := range fixes {
		xf := xFix{Description: f.Description}
		for _, c := range f.Changes {
			xc := xChange{URI: c.Path}
			for _, r := range c.Replacements {
				xc.Replacements = append(xc.Replacements, xReplacement{Deleted: *orEmpty(toXRegion(&r.Deleted)), Inserted: r.Inserted})
			}
			xf.Changes = append(xf.Changes, xc)
		}
		out = append(out, xf)
	}
	return out
}

func orEmpty(r *xRegion) *xRegion {
	if r == nil {
		return &xRegion{}
	}
	return r
}
