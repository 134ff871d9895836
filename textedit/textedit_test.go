package textedit

import (
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/review"
)

// TestUniqueResolvesExactly: the edit Unique makes resolves (ResolveEdit)
// to a change whose application gives the file with the range replaced.
func TestUniqueResolvesExactly(t *testing.T) {
	file := "a := 1\nb := 1\nif x {\n\treturn\n}\nif x {\n\treturn\n}\n"
	tests := []struct {
		name       string
		start, end int
		text       string
	}{
		{"unique bytes", 0, 1, "c"},
		{"repeated bytes widen", 5, 6, "2"},
		{"insertion", 7, 7, "// hi\n"},
		{"repeated block", strings.Index(file, "if x"), strings.Index(file, "if x") + 17, ""},
		{"second repeated block", strings.LastIndex(file, "if x"), len(file), "if y {\n}\n"},
		{"end of file insertion", len(file), len(file), "z\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, ok := NewIndex([]byte(file), nil).Unique("f.go", tt.start, tt.end, tt.text)
			if !ok {
				t.Fatal("no edit")
			}
			want := file[:tt.start] + tt.text + file[tt.end:]
			if got := Apply(t, file, e); got != want {
				t.Errorf("applied:\n%q\nwant\n%q", got, want)
			}
		})
	}
	if _, ok := NewIndex([]byte("x"), nil).Unique("f", 2, 3, ""); ok {
		t.Error("a range outside the file made an edit")
	}
}

// Apply applies e to file through review.ResolveEdit, replacing whole lines
// as a GitHub suggestion does.
func Apply(t *testing.T, file string, e agc.Edit) string {
	t.Helper()
	c, err := review.ResolveEdit([]byte(file), e)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(file, "\n")
	return strings.Join(lines[:c.Start-1], "") + c.New + strings.Join(lines[c.End:], "")
}
