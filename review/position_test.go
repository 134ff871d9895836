package review

import (
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
)

func TestParseLocation(t *testing.T) {
	tests := []struct {
		loc        string
		path       string
		start, end int
	}{
		{"src/a.go", "src/a.go", 0, 0},
		{"./src/a.go#Open", "src/a.go", 0, 0},
		{"src/a.go:12", "src/a.go", 12, 12},
		{"src/a.go:12-14", "src/a.go", 12, 14},
		{"src/a.go:12:5", "src/a.go", 12, 12},
		{"src/a.go#L12", "src/a.go", 12, 12},
		{"src/a.go#L12-L14", "src/a.go", 12, 14},
		{"src/a.go:14-12", "src/a.go:14-12", 0, 0},
		{"src/a.go:0", "src/a.go:0", 0, 0},
		{"Bash.command", "Bash.command", 0, 0},
		{"docs/x.md#Section: 3", "docs/x.md", 0, 0},
	}
	for _, tc := range tests {
		p, s, e := ParseLocation(tc.loc)
		if p != tc.path || s != tc.start || e != tc.end {
			t.Errorf("ParseLocation(%q) = %q %d %d, want %q %d %d", tc.loc, p, s, e, tc.path, tc.start, tc.end)
		}
	}
}

func TestLocateFromSARIFRegion(t *testing.T) {
	f := finding("vet", "x", "a.go", agc.Blocking)
	f.Unknown = []byte(`{"agc-action/sarif":{"level":"error","uri":"a.go","region":{"startLine":7,"endLine":9}}}`)
	if pos := Locate(&f, nil); pos.Path != "a.go" || pos.Start != 7 || pos.End != 9 {
		t.Errorf("position %+v, want a.go 7-9", pos)
	}
}

// A finding's other members hold any value (a help URI is a string): the
// SARIF region must still be read, or every linter finding loses its line
// and its inline comment.
func TestLocateFromSARIFRegionBesideOtherMembers(t *testing.T) {
	f := finding("eslint", "x", "src/app.js", agc.Blocking)
	f.Unknown = []byte(`{"agc-action/sarif":{"level":"error","uri":"src/app.js","region":{"startLine":4}},"agc-action/helpUri":"https://eslint.org/docs/latest/rules/semi","x-n":1}`)
	if pos := Locate(&f, nil); pos.Start != 4 || pos.End != 4 {
		t.Errorf("position %+v, want src/app.js 4", pos)
	}
}

// TestWorkflowCommandEscaping: a finding's text cannot end its annotation
// early or add a property.
func TestWorkflowCommandEscaping(t *testing.T) {
	f := finding("vet", "a,b:c%", "Bash.command", agc.Blocking)
	f.What = "50%\r\n::error::forged"
	var b strings.Builder
	if err := WriteAnnotations(&b, &agc.Response{Gate: agc.Gate{ID: "g"}, Findings: []agc.Finding{f}}, nil); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, want := range []string{"title=agc/g c-a%2Cb%3Ac%25::", "::50%25%0D%0A::error::forged%0A"} {
		if !strings.Contains(got, want) {
			t.Errorf("annotation %q lacks %q", got, want)
		}
	}
	if strings.Count(got, "\n") != 1 || !strings.HasPrefix(got, "::error ") {
		t.Errorf("annotation %q must be one command on one line", got)
	}
}

// filesAt is a FileReader over a map of paths to contents.
type filesAt map[string]string

func (m filesAt) ReadFile(p string) ([]byte, error) {
	if s, ok := m[p]; ok {
		return []byte(s), nil
	}
	return nil, fs.ErrNotExist
}

// TestAnnotationsWhenHeadUnknown: a finding with a line keeps its
// annotation when the commit's files cannot be read at all (issue 12,
// item 7); a location that is no file at a head that can be read has none.
func TestAnnotationsWhenHeadUnknown(t *testing.T) {
	r := response("lint", agc.Block, finding("lint", "a", "src/a.go:3-4", agc.Blocking), finding("lint", "b", "Bash.command:2", agc.Advisory))
	for _, tc := range []struct {
		name string
		head FileReader
		want []string
	}{
		{"unknown head", UnknownHead{}, []string{"src/a.go", "Bash.command"}},
		{"a head without the file", filesAt{"src/a.go": "package a\n"}, []string{"src/a.go"}},
	} {
		var got []string
		anns, withLine := Annotations(r, tc.head, 0)
		if withLine != len(tc.want) {
			t.Errorf("%s: %d findings with a line, want %d", tc.name, withLine, len(tc.want))
		}
		for _, a := range anns {
			got = append(got, a.GetPath())
			if a.GetPath() == "src/a.go" && (a.GetStartLine() != 3 || a.GetEndLine() != 4) {
				t.Errorf("%s: lines %d-%d, want 3-4", tc.name, a.GetStartLine(), a.GetEndLine())
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: annotations on %v, want %v", tc.name, got, tc.want)
		}
		var b strings.Builder
		if err := WriteAnnotations(&b, r, tc.head); err != nil || !strings.Contains(b.String(), "::error endLine=4,file=src/a.go,line=3,") {
			t.Errorf("%s: workflow annotations %q, %v", tc.name, b.String(), err)
		}
	}
}
