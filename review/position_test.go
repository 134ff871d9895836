package review

import (
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
