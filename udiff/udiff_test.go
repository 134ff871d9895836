package udiff

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/agcgate/agc-action/review"
)

const head = "package x\nfunc  F( ) {\nreturn\n}\n\nfunc G() {}\n"

// gofmtDiff is gofmt -d's output for head.
const gofmtDiff = "diff x.go.orig x.go\n--- x.go.orig\n+++ x.go\n@@ -1,6 +1,7 @@\n package x\n-func  F( ) {\n-return\n+\n+func F() {\n+\treturn\n }\n \n func G() {}\n"

// applyAll applies each finding's one edit as GitHub applies its
// suggestion (whole lines), from the bottom up.
func applyAll(t *testing.T, file string, fs []agc.Finding) string {
	t.Helper()
	type ch struct {
		start, end int
		text       string
	}
	var cs []ch
	for _, f := range fs {
		if len(f.Remedy.Edits) != 1 {
			t.Fatalf("%s: remedy %+v", f.ID, f.Remedy)
		}
		c, err := review.ResolveEdit([]byte(file), f.Remedy.Edits[0])
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, ch{c.Start, c.End, c.New})
	}
	lines := strings.SplitAfter(file, "\n")
	for i := len(cs) - 1; i >= 0; i-- {
		c := cs[i]
		lines = append(append(append([]string{}, lines[:c.start-1]...), c.text), lines[c.end:]...)
	}
	return strings.Join(lines, "")
}

func TestHunksBecomeSuggestions(t *testing.T) {
	tests := []struct {
		name, file, diff, want, location string
	}{
		{"gofmt -d", head, gofmtDiff, "package x\n\nfunc F() {\n\treturn\n}\n\nfunc G() {}\n", "x.go:2-3"},
		{"git diff, a/ b/", "a\nb\nc\n", "diff --git a/p/f.txt b/p/f.txt\nindex 1..2 100644\n--- a/p/f.txt\n+++ b/p/f.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n", "a\nB\nc\n", "p/f.txt:2"},
		{"insertion, no context", "a\nc\n", "--- f.txt\n+++ f.txt\n@@ -1,0 +2 @@\n+b\n", "a\nb\nc\n", "f.txt:2"},
		{"append at the end", "a\n", "--- f.txt\n+++ f.txt\n@@ -1 +1,2 @@\n a\n+b\n", "a\nb\n", "f.txt:1"},
		{"no newline at end of file", "a\nb", "--- f.txt\t2024-01-01\n+++ f.txt\t2024-01-02\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n", "a\nb\n", "f.txt:2"},
		{"repeated lines", "x\ny\nx\ny\n", "--- f.txt\n+++ f.txt\n@@ -3,2 +3,2 @@\n x\n-y\n+z\n", "x\ny\nx\nz\n", "f.txt:4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files, err := Parse("in.diff", []byte(tt.diff))
			if err != nil {
				t.Fatal(err)
			}
			path := "x.go"
			if strings.Contains(tt.diff, "f.txt") {
				path = tt.location[:strings.LastIndex(tt.location, ":")]
			}
			fsys := fstest.MapFS{path: {Data: []byte(tt.file)}}
			r, lints := ToAGC("in.diff", files, ToAGCOptions{FS: fsys, Gate: "fmt", Input: []byte(tt.diff)})
			if len(lints) > 0 {
				t.Errorf("lint %v", lints)
			}
			if len(r.Findings) != 1 || r.Findings[0].Location != tt.location || r.Verdict != agc.Block {
				t.Fatalf("findings %+v", r.Findings)
			}
			if got := applyAll(t, tt.file, r.Findings); got != tt.want {
				t.Errorf("applied %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := map[string]string{
		"@@ -1 +1 @@\n-a\n+b\n":                           "in.diff:1: a hunk before any --- / +++ file header",
		"--- f\n+++ f\n@@ -x +1 @@\n":                     "in.diff:3: malformed hunk header \"@@ -x +1 @@\"",
		"--- f\n+++ f\n@@ -1,2 +1,2 @@\n a\n":             "in.diff:5: the hunk at line 3 ends early: 1 old and 1 new lines missing",
		"--- f\n+++ f\n@@ -1,2 +1,2 @@\n a\n?b\n":         "in.diff:5: unexpected line in the hunk at line 3",
		"--- f\n+++ f\n@@ -1,1 +1,1 @@\n-a\n-b\n+a\n+b\n": "in.diff:5: the hunk at line 3 has more lines than its header says",
	}
	for in, want := range tests {
		if _, err := Parse("in.diff", []byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
	if files, err := Parse("in.diff", nil); err != nil || len(files) != 0 {
		t.Errorf("an empty diff: %v %v", files, err)
	}
}

// FuzzParse: any input parses or is an error with a line; what parses
// converts without panicking.
func FuzzParse(f *testing.F) {
	f.Add([]byte(gofmtDiff))
	f.Add([]byte("--- f.txt\n+++ f.txt\n@@ -1,0 +2 @@\n+b\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		files, err := Parse("in.diff", data)
		if err != nil {
			if _, ok := err.(*diag.Error); !ok {
				t.Fatalf("error %T without a place", err)
			}
			return
		}
		ToAGC("in.diff", files, ToAGCOptions{FS: fstest.MapFS{"x.go": {Data: []byte(head)}}, Gate: "g", Input: data})
	})
}
