package review

import (
	"crypto/sha256"
	"fmt"
	"regexp"
	"strconv"
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

// manyFindings are n findings of gate, one a file (f0001.go:3, ...),
// each with what as its message.
func manyFindings(gate string, n int, what string) []agc.Finding {
	fs := make([]agc.Finding, n)
	for i := range fs {
		fs[i] = finding(gate, fmt.Sprintf("f%04d", i+1), fmt.Sprintf("pkg/f%04d.go:3", i+1), agc.Blocking)
		fs[i].What = what
	}
	return fs
}

// unembeddable is a response's bytes too large to embed in a check run.
func unembeddable() []byte {
	var b []byte
	sum := sha256.Sum256(nil)
	for len(b) < 100<<10 {
		sum = sha256.Sum256(sum[:])
		b = append(b, sum[:]...)
	}
	return b
}

var leftOutRE = regexp.MustCompile(`(\d+) findings? (?:is|are) not listed in this check run`)

// TestPlanCheck: a check run lists every finding the review lacks while
// GitHub's limits allow, a compact line each, in its summary and then its
// text; past that it states exactly how many it leaves out and where they
// are, and it names an embedded response only when there is one.
func TestPlanCheck(t *testing.T) {
	sarifPath := "/home/runner/work/_temp/agc/agc.sarif"
	for _, tc := range []struct {
		name          string
		fs            []agc.Finding
		raw           []byte // nil: the response's own encoding
		sarif         SARIFPlace
		table         bool // every finding in the summary's tables
		leftOut       bool
		want, notWant []string
	}{
		{name: "fits", fs: manyFindings("lint", 3, "Short."), table: true,
			want: []string{"3 findings in full"}, notWant: []string{"not listed in this check run", "Findings the review does not show"}},
		{name: "unicode lines, all listed", fs: manyFindings("big", 400, strings.Repeat("ünïcödé ", 30)),
			want: []string{"#### Findings\n", "ünïc…"}},
		{name: "left out, SARIF file", fs: manyFindings("big", 3000, strings.Repeat("word ", 40)), raw: unembeddable(),
			sarif: SARIFPlace{Path: sarifPath}, leftOut: true,
			want:    []string{"The Action's `sarif-file` output (`" + sarifPath + "` on the runner; upload it as an artifact to keep it) holds every finding."},
			notWant: []string{"embedded in this check run", "code scanning"}},
		{name: "left out, uploaded", fs: manyFindings("big", 3000, strings.Repeat("word ", 40)), raw: unembeddable(),
			sarif: SARIFPlace{Path: sarifPath, Uploaded: true}, leftOut: true,
			want:    []string{"Code scanning (this run uploads the SARIF file) and the Action's `sarif-file` output"},
			notWant: []string{"embedded in this check run"}},
		{name: "left out, embedded", fs: manyFindings("big", 3000, strings.Repeat("word ", 40)), leftOut: true,
			want: []string{"The response embedded in this check run (`agc-sarif` reads it back) holds every finding."}},
		{name: "left out, no SARIF file", fs: manyFindings("big", 3000, strings.Repeat("word ", 40)), raw: unembeddable(), leftOut: true,
			want: []string{"The answer the gate gave holds every finding (this run wrote no SARIF file, and the response is not embedded)."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := response(tc.fs[0].ID[:strings.Index(tc.fs[0].ID, "/")], agc.Block, tc.fs...)
			raw := tc.raw
			if raw == nil {
				raw, _ = agc.Encode(r)
			}
			out := PlanCheck(r, CheckOptions{Raw: raw, SARIF: tc.sarif, Links: Links{Server: "https://github.com", Repo: "octo/big", SHA: strings.Repeat("4b82", 10)}})
			for name, s := range map[string]string{"summary": out.Summary, "text": out.Text} {
				if n := utf8.RuneCountInString(s); n > MaxCheckText {
					t.Errorf("the %s has %d characters, over GitHub's %d", name, n, MaxCheckText)
				}
			}
			both := out.Summary + "\n" + out.Text
			listed := 0
			for _, f := range tc.fs {
				if strings.Contains(both, "pkg/"+strings.TrimPrefix(f.ID, r.Gate.ID+"/")+".go") {
					listed++
				}
			}
			if tc.table != strings.Contains(out.Summary, "| Line | Rule | Message |") {
				t.Errorf("tables in the summary: %v, want %v", !tc.table, tc.table)
			}
			stated := 0
			if m := leftOutRE.FindStringSubmatch(both); m != nil {
				stated, _ = strconv.Atoi(m[1])
			}
			if listed != out.Listed || stated != out.LeftOut || listed+stated != len(tc.fs) || (stated > 0) != tc.leftOut {
				t.Errorf("%d listed (Listed %d) + %d stated left out (LeftOut %d), want %d in all, left out: %v", listed, out.Listed, stated, out.LeftOut, len(tc.fs), tc.leftOut)
			}
			for _, line := range strings.Split(both, "\n") {
				if (strings.HasPrefix(line, "- ⛔") || strings.HasPrefix(line, "- ⚠")) && !strings.HasSuffix(line, ".") && !strings.HasSuffix(line, "…") {
					t.Errorf("a line is not whole: %q", line)
				}
			}
			for _, w := range tc.want {
				if !strings.Contains(both, w) {
					t.Errorf("the check run lacks %q", w)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(both, w) {
					t.Errorf("the check run says %q", w)
				}
			}
			if Embedded(out.Text) != (tc.raw == nil) {
				t.Errorf("embedded %v, want %v", Embedded(out.Text), tc.raw == nil)
			}
			if tc.leftOut && !strings.Contains(out.Summary, "link to their lines") {
				t.Errorf("the summary does not say which lines are linked")
			}
		})
	}
}

// TestPlanCheckPrefersWhatTheReviewLacks: the findings the review shows
// come after those it lacks, and only when those all fit with their links.
func TestPlanCheckPrefersWhatTheReviewLacks(t *testing.T) {
	for _, tc := range []struct {
		name      string
		n, shown  int
		wantShown bool
	}{
		{"room for all", 300, 250, true},
		{"no room", 3000, 1000, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := manyFindings("lint", tc.n, strings.Repeat("word ", 40))
			r := response("lint", agc.Block, fs...)
			p := &ReviewPlan{Gate: "lint", Placed: Place(r, nil, nil, FilterAdded), Inline: tc.shown, Unlisted: tc.n - tc.shown}
			for i := range p.Placed {
				if i < tc.shown {
					p.Placed[i].Channel = ChannelInline
				}
			}
			raw, _ := agc.Encode(r)
			out := PlanCheck(r, CheckOptions{Plan: p, Raw: raw})
			lacking := strings.Index(out.Summary, "pkg/f"+fmt.Sprintf("%04d", tc.shown+1)+".go")
			first := strings.Index(out.Summary, "pkg/f0001.go")
			if lacking < 0 || first >= 0 && first < lacking {
				t.Errorf("a finding the review shows is listed before one it lacks (at %d, %d)", first, lacking)
			}
			if got := strings.Contains(out.Summary, "#### Also on the pull request"); got != tc.wantShown {
				t.Errorf("the findings the review shows are listed: %v, want %v", got, tc.wantShown)
			}
			if out.Listed+out.LeftOut != tc.n-tc.shown {
				t.Errorf("%d listed + %d left out, want the %d the review lacks", out.Listed, out.LeftOut, tc.n-tc.shown)
			}
			if want := fmt.Sprintf("%d findings are inline comments and 0 are listed in the review body; %d are listed only in this check run.", tc.shown, out.Listed); !strings.Contains(out.Summary, want) {
				t.Errorf("the summary lacks %q:\n%.600s", want, out.Summary)
			}
		})
	}
}

// TestPlanCheckKeepsTheRecord: the binding record opens the text, before
// the lines it continues and the embedded response.
func TestPlanCheckKeepsTheRecord(t *testing.T) {
	r := response("lint", agc.Block, manyFindings("lint", 1500, strings.Repeat("word ", 10))...)
	raw, _ := agc.Encode(r)
	const rec = "<!-- agc:binding v=1 -->\n"
	out := PlanCheck(r, CheckOptions{Raw: raw, Record: rec})
	if !strings.HasPrefix(out.Text, rec) || !Embedded(out.Text) || !strings.Contains(out.Text, "continued") {
		t.Errorf("the text does not open with the record, then lines, then the response:\n%.300s", out.Text)
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
	s := PlanCheck(response("lint", agc.Block, fs...), CheckOptions{}).Summary
	if n := strings.Count(s, "\n```"); n%2 != 0 {
		t.Errorf("summary ends inside a code block (%d fence lines); tail: %q", n, s[len(s)-200:])
	}
}
