package sarif_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agcgate/agc-action/sarif"
)

const shiftSource = `package calc

func Add(a, b int) int {
	return a + b // TODO
}

func Div(a, b int) int {
	return a / b // TODO
}

func Twice(a int) int {
	return a + a // TODO
}
`

// shiftLog reports results on lines of calc.go, offset by shift, with no
// fingerprints: ids must then come from the lines' content.
func shiftLog(shift int, withSnippet bool) string {
	var results []string
	for i, line := range []int{4, 8, 12, 4} {
		snippet := ""
		if withSnippet {
			snippet = `, "snippet": {"text": "return ..."}`
		}
		results = append(results, fmt.Sprintf(`{"ruleId": "todo", "level": "error", "message": {"text": "A TODO is left (%d)."},
			"locations": [{"physicalLocation": {"artifactLocation": {"uri": "calc/calc.go"}, "region": {"startLine": %d%s}}}]}`, i%3, line+shift, snippet))
	}
	return `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "todo-check"}}, "results": [` + strings.Join(results, ",") + `]}]}`
}

// TestLineShiftKeepsIDs: inserting 20 lines at the top of a file changes
// no finding id.
func TestLineShiftKeepsIDs(t *testing.T) {
	ids := func(log string, src string) []string {
		t.Helper()
		l, _, err := sarif.ReadLog(strings.NewReader(log), "shift.sarif", sarif.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		fsys := fstest.MapFS{"calc/calc.go": {Data: []byte(src)}}
		rs, _ := sarif.ToAGC(l, sarif.ToAGCOptions{FS: fsys})
		var out []string
		for _, f := range rs[0].Findings {
			out = append(out, f.ID)
		}
		return out
	}
	shifted := strings.Repeat("// a line added on top\n", 20) + shiftSource
	before := ids(shiftLog(0, false), shiftSource)
	after := ids(shiftLog(20, false), shifted)
	if len(before) != 4 {
		t.Fatalf("want 4 findings, got %v", before)
	}
	for i := range before {
		if before[i] != after[i] {
			t.Errorf("finding %d: id %q became %q after a 20-line shift", i, before[i], after[i])
		}
	}
	seen := map[string]bool{}
	for _, id := range before {
		if seen[id] {
			t.Errorf("duplicate id %q", id)
		}
		seen[id] = true
	}
	// Lines with different content get different ids.
	if before[0] == before[1] {
		t.Errorf("different lines share id %q", before[0])
	}
}

// TestLineShiftWithoutSources: with no source root, snippets and messages
// still give ids that do not move with the line.
func TestLineShiftWithoutSources(t *testing.T) {
	get := func(log string) []string {
		l, _, err := sarif.ReadLog(bytes.NewReader([]byte(log)), "shift.sarif", sarif.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		rs, _ := sarif.ToAGC(l, sarif.ToAGCOptions{})
		var out []string
		for _, f := range rs[0].Findings {
			out = append(out, f.ID)
		}
		return out
	}
	a, b := get(shiftLog(0, true)), get(shiftLog(20, true))
	for i := range a {
		if a[i] != b[i] {
			t.Errorf("finding %d: id %q became %q", i, a[i], b[i])
		}
	}
}

// TestSourceColumns: regions count UTF-16 code units and read back the
// text they cover.
func TestSourceColumns(t *testing.T) {
	src := sarif.NewSource(fstest.MapFS{"a.txt": {Data: []byte("héllo 😀 wörld\r\nnext line\n")}})
	rg, ok := src.Find("a.txt", "wörld")
	if !ok || rg.StartLine != 1 || rg.StartColumn != 10 || rg.EndColumn != 15 {
		t.Fatalf("Find = %+v %v, want line 1 columns 10-15", rg, ok)
	}
	if got, ok := src.Text("a.txt", rg); !ok || got != "wörld" {
		t.Errorf("Text = %q %v", got, ok)
	}
	if got, ok := src.Text("a.txt", sarif.Region{StartLine: 2, CharOffset: -1}); !ok || got != "next line" {
		t.Errorf("whole line 2 = %q %v", got, ok)
	}
	if _, ok := src.Text("a.txt", sarif.Region{StartLine: 1, StartColumn: 40, CharOffset: -1}); ok {
		t.Error("a column past the line resolved")
	}
	if _, ok := src.Line("../etc/passwd", 1); ok {
		t.Error("a path outside the root was read")
	}
}
