package review

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
)

// addedFile is a file the pull request adds: every line can carry a
// comment and a suggestion.
func addedFile(path, head string) map[string]*FileDiff {
	ls := strings.SplitAfter(strings.TrimSuffix(head, "\n"), "\n")
	patch := fmt.Sprintf("@@ -0,0 +1,%d @@\n", len(ls))
	for _, l := range ls {
		patch += "+" + strings.TrimSuffix(l, "\n") + "\n"
	}
	hunks, err := ParsePatch(strings.TrimSuffix(patch, "\n"))
	if err != nil {
		panic(err)
	}
	return map[string]*FileDiff{path: NewFileDiff(path, "added", hunks)}
}

type oneFile struct{ path, data string }

func (f oneFile) ReadFile(path string) ([]byte, error) {
	if path != f.path {
		return nil, fmt.Errorf("%s: no such file", path)
	}
	return []byte(f.data), nil
}

// TestTrojanSourceIsNeverASuggestion is the attack of issue 11, case 5: a
// judged party's patch remedy whose replacement holds characters a
// reviewer cannot see, offered as a one-click suggestion. Bidirectional
// overrides and isolates (CVE-2021-42574) and zero-width characters are
// never a suggestion; the comment says why and shows the change escaped.
// A carriage return of a CRLF file's own line endings stays allowed.
func TestTrojanSourceIsNeverASuggestion(t *testing.T) {
	const lf = "package auth\n\nfunc Admin(level string) bool {\n\treturn level == \"admin\"\n}\n"
	crlf := strings.ReplaceAll(lf, "\n", "\r\n")
	tests := []struct {
		name, head, find, replace string
		suggest                   bool
		shown                     []string // in the body, when not suggested
	}{
		{"right-to-left override", lf, "level == \"admin\"", "level == \"admin\u202e \u2066// only admins\u2069 \u2066\"",
			false, []string{"<U+202E>", "<U+2066>", "<U+2069>", "U+202E RIGHT-TO-LEFT OVERRIDE", "U+2066 LEFT-TO-RIGHT ISOLATE"}},
		{"left-to-right isolate", lf, "return level", "return \u2066level\u2069",
			false, []string{"<U+2066>level<U+2069>", "U+2069 POP DIRECTIONAL ISOLATE"}},
		{"zero width space", lf, "\"admin\"", "\"adm\u200bin\"",
			false, []string{"\"adm<U+200B>in\"", "U+200B ZERO WIDTH SPACE"}},
		{"byte order mark", lf, "\"admin\"", "\"\ufeffadmin\"", false, []string{"<U+FEFF>"}},
		{"C1 control", lf, "\"admin\"", "\"\u009badmin\"", false, []string{"<U+009B>", "a control character"}},
		{"escape character", lf, "\"admin\"", "\"\x1b[2Kadmin\"", false, []string{"<U+001B>[2K"}},
		{"carriage return in a file with LF endings", lf, "\"admin\"", "\"admin\"\r", false, []string{"<U+000D>"}},
		{"CRLF file keeps its line endings", crlf, "\treturn level == \"admin\"\r\n", "\treturn level == \"root\"\r\n", true, nil},
		{"CRLF file, a lone carriage return", crlf, "\"admin\"", "\"ad\rmin\"", false, []string{"\"ad<U+000D>min\""}},
		{"tab and plain text", lf, "level ==", "level\t==", true, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := finding("lint", "trojan", "auth.go#Admin", agc.Blocking)
			f.Remedy = agc.Remedy{Kind: agc.RemedyPatch, Edits: []agc.Edit{{Path: "auth.go", Find: tc.find, Replace: tc.replace}}}
			r := response("lint", agc.Block, f)
			ps := Place(r, addedFile("auth.go", tc.head), oneFile{"auth.go", tc.head}, FilterAdded)
			p := ps[0]
			if p.Channel != ChannelInline || p.Pos.Change == nil {
				t.Fatalf("placed %v with change %v, want inline with a change", p.Channel, p.Pos.Change)
			}
			body, _ := InlineBody("lint", p)
			if p.Suggest != tc.suggest || strings.Contains(body, "suggestion\n") != tc.suggest {
				t.Fatalf("suggested %v, want %v:\n%s", p.Suggest, tc.suggest, body)
			}
			if tc.suggest {
				if tc.head == crlf && !strings.Contains(body, "\treturn level == \"root\"\r\n") {
					t.Errorf("the CRLF file's carriage return is gone from the suggestion:\n%q", body)
				}
				return
			}
			if !strings.Contains(body, "No one-click suggestion") {
				t.Errorf("the comment does not say why no suggestion was made:\n%s", body)
			}
			for _, want := range tc.shown {
				if !strings.Contains(body, want) {
					t.Errorf("the comment lacks %q:\n%s", want, body)
				}
			}
			for _, r := range "\u202e\u2066\u2069\u009b\x1b" {
				if strings.ContainsRune(body, r) {
					t.Errorf("the comment holds U+%04X raw:\n%q", r, body)
				}
			}
		})
	}
}
