package review

import (
	"encoding/json"
	"strings"

	"github.com/agcgate/agc-action/agc"
)

// FileReader reads a file of the repository at the head commit, by its
// path relative to the repository root.
type FileReader interface {
	ReadFile(path string) ([]byte, error)
}

// Position is where a finding points: a path and, when known, head lines
// Start..End. A Position with no path is not in any file.
type Position struct {
	Path       string
	Start, End int
	// Change is set when the finding's patch remedy resolved against the
	// file at head; its lines are the position's.
	Change *Change
}

// ParseLocation splits a finding's location into a path and the lines it
// touches, zeros when it has none (agc.LocationFile, agc.Position.Lines):
// "path", "path#symbol", "path:12", "path:12-14", "path:12:5-14:2",
// "path#L12", "path#L12-L14".
func ParseLocation(loc string) (path string, start, end int) {
	path, pos := agc.LocationFile(loc)
	start, end = pos.Lines()
	return path, start, end
}

// Locate finds where f points. A patch remedy with one edit in the
// location's file, found exactly once in it at head, gives the lines the
// edit replaces (and a Change for a suggestion). Otherwise the location's
// own lines are used, if it has any.
func Locate(f *agc.Finding, head FileReader) Position {
	path, start, end := ParseLocation(f.Location)
	if start == 0 {
		start, end = sarifRegion(f)
	}
	pos := Position{Path: path, Start: start, End: end}
	if f.Remedy.Kind != agc.RemedyPatch || len(f.Remedy.Edits) != 1 || head == nil {
		return pos
	}
	e := f.Remedy.Edits[0]
	e.Path = strings.TrimPrefix(e.Path, "./")
	if e.Path != path {
		return pos
	}
	data, err := head.ReadFile(e.Path)
	if err != nil {
		return pos
	}
	c, err := ResolveEdit(data, e)
	if err != nil || (start > 0 && (c.End < start || c.Start > end)) {
		return pos
	}
	pos.Start, pos.End, pos.Change = c.Start, c.End, &c
	return pos
}

// sarifMember is the member package sarif keeps a SARIF result's location
// in when it makes a finding of it (docs/sarif-mapping.md).
const sarifMember = "agc-action/sarif"

// sarifRegion returns the lines of the SARIF region a finding came from,
// or zeros.
func sarifRegion(f *agc.Finding) (start, end int) {
	// Other members may hold any value: decode only the sarif one.
	v, ok, err := agc.Member(f.Unknown, sarifMember)
	if !ok || err != nil {
		return 0, 0
	}
	var x struct {
		Region *struct {
			StartLine int `json:"startLine"`
			EndLine   int `json:"endLine"`
		} `json:"region"`
	}
	if json.Unmarshal(v, &x) != nil {
		return 0, 0
	}
	rg := x.Region
	if rg == nil || rg.StartLine < 1 {
		return 0, 0
	}
	return rg.StartLine, max(rg.EndLine, rg.StartLine)
}
