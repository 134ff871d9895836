package subject

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agcgate/agc-action/internal/logsafe"
)

// Tree is what a fingerprint was computed over at one commit: the whole
// tree and the entries selected from it.
type Tree struct {
	All      []Entry
	Selected []Entry
}

// Change is one difference between two selections, printed as
// "src/a.go modified" or "src/b.go renamed to docs/b.go", a path that is
// not plain quoted (logsafe.Name): it is printed in logs, where a line
// break in a file name would start a line of the judged party's.
type Change struct {
	Path string
	Kind string // modified, mode changed, added, deleted, renamed, entered the scope, left the scope
	To   string // the new path of a rename
	Note string // old -> new mode or object id
}

func (c Change) String() string {
	s := logsafe.Name(c.Path) + " " + c.Kind
	if c.To != "" {
		s += " to " + logsafe.Name(c.To)
	}
	if c.Note != "" {
		s += " (" + c.Note + ")"
	}
	return s
}

// Diff lists how the selection changed from old to new, by path. A
// selected path that disappears while its object id appears at a new path
// is a rename (the new path may lie outside the scope); one that stays in
// the tree but leaves the selection "left the scope".
func Diff(old, new Tree) []Change {
	oldSel, newSel := index(old.Selected), index(new.Selected)
	oldAll, newAll := index(old.All), index(new.All)
	gone := byOID(old.All, newAll) // paths only in the old tree, by object id
	came := byOID(new.All, oldAll)
	var out []Change
	renamedTo := map[string]bool{}
	for _, e := range old.Selected {
		n, ok := newSel[e.Path]
		switch {
		case ok:
			out = appendModified(out, e, n)
		case has(newAll, e.Path):
			out = append(out, Change{Path: e.Path, Kind: "left the scope"})
		default:
			if to := take(came, e.OID); to != "" {
				renamedTo[to] = true
				drop(gone, e.OID, e.Path)
				out = append(out, Change{Path: e.Path, Kind: "renamed", To: to})
			} else {
				out = append(out, Change{Path: e.Path, Kind: "deleted"})
			}
		}
	}
	for _, e := range new.Selected {
		if _, ok := oldSel[e.Path]; ok || renamedTo[e.Path] {
			continue
		}
		switch {
		case has(oldAll, e.Path):
			out = append(out, Change{Path: e.Path, Kind: "entered the scope"})
		default:
			if from := take(gone, e.OID); from != "" {
				out = append(out, Change{Path: from, Kind: "renamed", To: e.Path})
			} else {
				out = append(out, Change{Path: e.Path, Kind: "added"})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Change) int { return strings.Compare(a.Path, b.Path) })
	return out
}

func appendModified(out []Change, o, n Entry) []Change {
	switch {
	case o.OID != n.OID && o.Mode != n.Mode:
		return append(out, Change{Path: o.Path, Kind: "modified", Note: fmt.Sprintf("mode %s -> %s", o.Mode, n.Mode)})
	case o.OID != n.OID:
		return append(out, Change{Path: o.Path, Kind: "modified"})
	case o.Mode != n.Mode:
		return append(out, Change{Path: o.Path, Kind: "mode changed", Note: o.Mode + " -> " + n.Mode})
	}
	return out
}

func index(es []Entry) map[string]Entry {
	m := make(map[string]Entry, len(es))
	for _, e := range es {
		m[e.Path] = e
	}
	return m
}

func has(m map[string]Entry, p string) bool {
	_, ok := m[p]
	return ok
}

// byOID maps object ids to the paths of es missing from other, in order.
func byOID(es []Entry, other map[string]Entry) map[string][]string {
	m := map[string][]string{}
	for _, e := range es {
		if !has(other, e.Path) {
			m[e.OID] = append(m[e.OID], e.Path)
		}
	}
	return m
}

// take removes and returns the first path recorded for oid, or "".
func take(m map[string][]string, oid string) string {
	ps := m[oid]
	if len(ps) == 0 {
		return ""
	}
	m[oid] = ps[1:]
	return ps[0]
}

// drop removes path from the paths recorded for oid.
func drop(m map[string][]string, oid, path string) {
	m[oid] = slices.DeleteFunc(m[oid], func(p string) bool { return p == path })
}

// GateChanges names the gate configuration files that differ between a and b.
func GateChanges(a, b Gate) []string {
	old := map[string][32]byte{}
	for _, cf := range a.Configs {
		old[cf.Path] = cf.SHA256
	}
	var out []string
	for _, cf := range b.Configs {
		if h, ok := old[cf.Path]; !ok {
			out = append(out, "gate config "+logsafe.Name(cf.Path)+" added")
		} else if h != cf.SHA256 {
			out = append(out, "gate config "+logsafe.Name(cf.Path)+" modified")
		}
		delete(old, cf.Path)
	}
	for _, cf := range a.Configs {
		if _, ok := old[cf.Path]; ok {
			out = append(out, "gate config "+logsafe.Name(cf.Path)+" removed")
		}
	}
	return out
}
