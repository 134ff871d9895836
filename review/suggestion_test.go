package review

import (
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/internal/testkit"
	"github.com/google/go-cmp/cmp"
)

const goFile = "package db\n\nfunc Open() {\n\tdb.Ping()\n\treturn db\n}\n"

func TestResolveEdit(t *testing.T) {
	tests := []struct {
		name          string
		head          string
		find, replace string
		want          Change
		err           string
	}{
		{"whole line", goFile, "\tdb.Ping()\n", "\tif err := db.Ping(); err != nil {\n\t\treturn nil, err\n\t}\n",
			Change{Start: 4, End: 4, Old: "\tdb.Ping()\n", New: "\tif err := db.Ping(); err != nil {\n\t\treturn nil, err\n\t}\n"}, ""},
		{"inside a line", goFile, "Ping", "PingContext",
			Change{Start: 4, End: 4, Old: "\tdb.Ping()\n", New: "\tdb.PingContext()\n"}, ""},
		{"across lines", goFile, "Ping()\n\treturn", "Close()\n\treturn",
			Change{Start: 4, End: 5, Old: "\tdb.Ping()\n\treturn db\n", New: "\tdb.Close()\n\treturn db\n"}, ""},
		{"deletion", goFile, "\tdb.Ping()\n", "",
			Change{Start: 4, End: 4, Old: "\tdb.Ping()\n", New: ""}, ""},
		{"dropped newline joins the next line", goFile, "\tdb.Ping()\n", "\tx := ",
			Change{Start: 4, End: 5, Old: "\tdb.Ping()\n\treturn db\n", New: "\tx := \treturn db\n"}, ""},
		{"last line without newline", "a\nb", "b", "c", Change{Start: 2, End: 2, Old: "b", New: "c"}, ""},
		{"not found", goFile, "Close", "x", Change{}, "not in"},
		{"ambiguous", goFile, "db", "x", Change{}, "more than once"},
		{"empty find", goFile, "", "x", Change{}, "empty"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ResolveEdit([]byte(tc.head), agc.Edit{Path: "db.go", Find: tc.find, Replace: tc.replace})
			if testkit.WantErr(t, err, tc.err) {
				return
			}
			tc.want.Path = "db.go"
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestSuggestionBlocks(t *testing.T) {
	tests := []struct {
		name string
		c    Change
		want string
	}{
		{"replacement", Change{New: "\tdb.PingContext()\n"}, "```suggestion\n\tdb.PingContext()\n```\n"},
		{"deletion is an empty block", Change{New: ""}, "```suggestion\n```\n"},
		{"an empty line is kept", Change{New: "\n"}, "```suggestion\n\n```\n"},
		{"indented fence in content", Change{New: "doc := `\n   ````go\n   ````\n`\n"},
			"`````suggestion\ndoc := `\n   ````go\n   ````\n`\n`````\n"},
		{"tilde run", Change{New: "~~~~~~\n"}, "```````suggestion\n~~~~~~\n```````\n"},
		{"no final newline", Change{New: "c"}, "```suggestion\nc\n```\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.c.Suggestion(); got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

// FuzzSuggestion checks the suggestion builder against the edit it stands
// for: replacing the change's whole lines with New gives the same file as
// applying the edit, and the block's content comes back out of the
// fence unchanged, with no line inside able to close it.
func FuzzSuggestion(f *testing.F) {
	f.Add(goFile, "\tdb.Ping()\n", "")
	f.Add(goFile, "Ping", "Ping\n```\n   ````\n~~~")
	f.Add("a\nb", "b", "c")
	f.Add("x\n\ny\n", "\n\n", "\n")
	f.Fuzz(func(t *testing.T, head, find, replace string) {
		c, err := ResolveEdit([]byte(head), agc.Edit{Path: "f", Find: find, Replace: replace})
		if err != nil {
			return
		}
		hl := strings.SplitAfter(head, "\n")
		if c.Start < 1 || c.End < c.Start || c.End > len(hl) {
			t.Fatalf("lines %d-%d outside a %d-line file", c.Start, c.End, len(hl))
		}
		if got := strings.Join(hl[c.Start-1:c.End], ""); got != c.Old {
			t.Fatalf("Old %q is not lines %d-%d %q", c.Old, c.Start, c.End, got)
		}
		applied := strings.Join(hl[:c.Start-1], "") + c.New + strings.Join(hl[c.End:], "")
		if want := strings.Replace(head, find, replace, 1); applied != want {
			t.Fatalf("suggestion gives %q, the edit gives %q", applied, want)
		}
		block := c.Suggestion()
		first, rest, _ := strings.Cut(block, "\n")
		fence := strings.TrimSuffix(first, "suggestion")
		content, ok := strings.CutSuffix(rest, fence+"\n")
		if !ok {
			t.Fatalf("block does not end with its fence: %q", block)
		}
		wantContent := c.New
		if wantContent != "" && !strings.HasSuffix(wantContent, "\n") {
			wantContent += "\n"
		}
		if content != wantContent {
			t.Fatalf("content %q, want %q", content, wantContent)
		}
		for _, l := range strings.Split(content, "\n") {
			trimmed := strings.TrimLeft(l, " ")
			if len(l)-len(trimmed) <= 3 && strings.HasPrefix(trimmed, fence) {
				t.Fatalf("content line %q closes fence %q", l, fence)
			}
		}
	})
}
