package review

import (
	"sort"
	"testing"

	"github.com/agcgate/agc-action/internal/testkit"
	"github.com/google/go-cmp/cmp"
)

func TestParsePatch(t *testing.T) {
	tests := []struct {
		name  string
		patch string
		added []int
		hunks int
		err   string
	}{
		{"empty", "", nil, 0, ""},
		{"added file", "@@ -0,0 +1,2 @@\n+a\n+b", []int{1, 2}, 1, ""},
		{"counts of one omitted", "@@ -3 +3 @@\n-x\n+y", []int{3}, 1, ""},
		{"two hunks", "@@ -1,2 +1,3 @@\n a\n+b\n c\n@@ -10,2 +11,2 @@ func F() {\n-d\n+e\n f", []int{2, 11}, 2, ""},
		{"no newline marker", "@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n\\ No newline at end of file", []int{1}, 1, ""},
		{"empty context line", "@@ -1,3 +1,3 @@\n a\n\n-c\n+d", []int{3}, 1, ""},
		{"bad header", "@@ -a +1 @@\n+x", nil, 0, "bad range start"},
		{"no header", "+x", nil, 0, "expected a hunk header"},
		{"short hunk", "@@ -1,2 +1,2 @@\n a", nil, 0, "hunk ends early"},
		{"line that does not fit", "@@ -1 +1 @@\n a\n+b", nil, 0, "expected a hunk header"},
		{"unknown prefix", "@@ -1 +1 @@\n*a", nil, 0, "does not fit"},
		{"start zero with lines", "@@ -0,1 +1 @@\n a", nil, 0, "starts at line 0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hs, err := ParsePatch(tc.patch)
			if testkit.WantErr(t, err, tc.err) {
				return
			}
			if len(hs) != tc.hunks {
				t.Errorf("%d hunks, want %d", len(hs), tc.hunks)
			}
			if diff := cmp.Diff(tc.added, addedLines(NewFileDiff("f", "modified", hs))); diff != "" {
				t.Errorf("added lines (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFileDiffHunks(t *testing.T) {
	hs, err := ParsePatch("@@ -1,3 +1,4 @@\n a\n+b\n c\n d\n@@ -20,2 +21,2 @@\n x\n-y\n+z")
	if err != nil {
		t.Fatal(err)
	}
	d := NewFileDiff("f", "modified", hs)
	tests := []struct {
		start, end   int
		inOne, added bool
	}{
		{1, 4, true, true},
		{3, 4, true, false},
		{4, 21, false, false},
		{21, 22, true, true},
		{5, 5, false, false},
		{0, 1, false, false},
	}
	for _, tc := range tests {
		if got := d.InOneHunk(tc.start, tc.end); got != tc.inOne {
			t.Errorf("InOneHunk(%d,%d) = %v", tc.start, tc.end, got)
		}
		if got := d.AnyAdded(tc.start, tc.end); got != tc.added {
			t.Errorf("AnyAdded(%d,%d) = %v", tc.start, tc.end, got)
		}
	}
}

// FuzzParsePatch checks that the parser never panics and that what it
// accepts is consistent: line numbers advance by one per side, and hunk
// counts match the lines.
func FuzzParsePatch(f *testing.F) {
	for _, s := range []string{
		"", "@@ -0,0 +1,2 @@\n+a\n+b", "@@ -3 +3 @@\n-x\n+y",
		"@@ -1,2 +1,3 @@\n a\n+b\n c\n@@ -10,2 +11,2 @@ func F() {\n-d\n+e\n f",
		"@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n\\ No newline at end of file",
		"@@ -1,3 +1,5 @@\n package a\n \n func A() {}\n+\n+func B() {}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, patch string) {
		hs, err := ParsePatch(patch)
		if err != nil {
			return
		}
		for _, h := range hs {
			var oldN, newN int
			o, n := h.OldStart, h.NewStart
			for _, l := range h.Lines {
				switch l.Kind {
				case Context:
					if l.Old != o || l.New != n {
						t.Fatalf("context line numbers %d,%d want %d,%d", l.Old, l.New, o, n)
					}
					o, n, oldN, newN = o+1, n+1, oldN+1, newN+1
				case Deleted:
					if l.Old != o || l.New != 0 {
						t.Fatalf("deleted line numbers %d,%d", l.Old, l.New)
					}
					o, oldN = o+1, oldN+1
				case Added:
					if l.New != n || l.Old != 0 {
						t.Fatalf("added line numbers %d,%d", l.Old, l.New)
					}
					n, newN = n+1, newN+1
				default:
					t.Fatalf("kind %q", l.Kind)
				}
			}
			if oldN != h.OldLines || newN != h.NewLines {
				t.Fatalf("hunk counts %d,%d but lines %d,%d", h.OldLines, h.NewLines, oldN, newN)
			}
		}
		d := NewFileDiff("f", "modified", hs)
		for _, l := range addedLines(d) {
			if !d.InOneHunk(l, l) {
				t.Fatalf("added line %d is in no hunk", l)
			}
		}
	})
}

// addedLines returns d's added head lines in order.
func addedLines(d *FileDiff) []int {
	var out []int
	for l, r := range d.right {
		if r.added {
			out = append(out, l)
		}
	}
	sort.Ints(out)
	return out
}
