package review

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agcgate/agc-action/agc"
)

func TestConclusions(t *testing.T) {
	for verdict, want := range map[string]string{agc.Allow: "success", agc.Repaired: "success", agc.Block: "failure", agc.Escalate: "action_required"} {
		if got := Conclusion(verdict); got != want {
			t.Errorf("Conclusion(%s) = %s, want %s", verdict, got, want)
		}
	}
}

func TestSummaryCutCleanly(t *testing.T) {
	var fs []agc.Finding
	for i := 0; i < 400; i++ {
		f := finding("big", "f"+itoaT(i+1), "a.go:1", agc.Blocking)
		f.What = strings.Repeat("ünïcödé ", 30)
		fs = append(fs, f)
	}
	s := CheckSummary(response("big", agc.Block, fs...), "", nil, Links{})
	if n := utf8.RuneCountInString(s); n > MaxCheckText {
		t.Fatalf("summary has %d characters", n)
	}
	if !strings.Contains(s, "more findings are not in this table, to fit GitHub's limit: the response embedded in this check run") {
		t.Error("cut summary does not say so")
	}
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if last := lines[len(lines)-3]; !strings.HasPrefix(last, "| ") || !strings.HasSuffix(last, " |") {
		t.Errorf("the last row kept is not whole: %q", last)
	}
}

// the summary cut searches "\n#### " in the raw Markdown, which a
// remedy's run command can hold inside a fenced block: the cut lands inside
// the block and leaves it open, swallowing the note.
func TestSummaryNotCutInsideCodeBlock(t *testing.T) {
	var fs []agc.Finding
	for i := 0; i < 40; i++ {
		f := finding("lint", "f"+string(rune('a'+i%26))+strings.Repeat("x", i), "db.go:4", agc.Blocking)
		f.Remedy = agc.Remedy{Kind: agc.RemedyCommand, Run: "echo start\n#### not a heading\n" + strings.Repeat("echo filler\n", 150)}
		fs = append(fs, f)
	}
	s := CheckSummary(response("lint", agc.Block, fs...), "", nil, Links{})
	if n := strings.Count(s, "\n```"); n%2 != 0 {
		t.Errorf("summary ends inside a code block (%d fence lines); tail: %q", n, s[len(s)-200:])
	}
}
