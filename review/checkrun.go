package review

import (
	"fmt"
	"sort"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/render"
	"github.com/google/go-github/v62/github"
)

// GitHub's limits on what a check run and a status say (checkNote
// writes MaxCheckText as "65,535").
const (
	MaxCheckText      = 65535 // characters in output.summary and output.text
	MaxStatusDescribe = 140   // characters in a status description
)

// CheckName is the check run and status context of a gate: agc/<gate.id>.
func CheckName(gate string) string { return "agc/" + gate }

// Conclusion maps a verdict to a check run conclusion.
func Conclusion(verdict string) string {
	switch verdict {
	case agc.Allow, agc.Repaired:
		return "success"
	case agc.Escalate:
		return "action_required"
	}
	return "failure"
}

// CheckTitle is a check run's title, and the start of its status's
// description: the verdict, the counts and the round, which GitHub shows
// beside the check's name in the pull request's list of checks.
func CheckTitle(r *agc.Response) string {
	blocking := len(r.Blocking())
	return fmt.Sprintf("%s: %d blocking, %d advisory, round %d of %d", r.Verdict, blocking, len(r.Findings)-blocking, r.Attempt.N, r.Attempt.Budget)
}

// SARIFPlace is where this run's SARIF log, which holds every finding,
// is: what a check run cannot list, it says is there.
type SARIFPlace struct {
	// Path is the Action's sarif-file output on the runner; "": no SARIF
	// file was written (agc-sarif github).
	Path string
	// Uploaded says the run uploads it to code scanning (upload-sarif).
	Uploaded bool
}

// holders is a clause naming what holds every finding of a gate besides
// what the check run lists: the response embedded in it when it is, code
// scanning when the SARIF file is uploaded, the SARIF file. It names
// nothing that is not there.
func (s SARIFPlace) holders(embedded bool) string {
	var hs []string
	if embedded {
		hs = append(hs, "the response embedded in this check run (`agc-sarif` reads it back)")
	}
	if s.Uploaded {
		hs = append(hs, "code scanning (this run uploads the SARIF file)")
	}
	if s.Path != "" {
		hs = append(hs, "the Action's `sarif-file` output ("+render.CodeSpan(s.Path)+" on the runner; upload it as an artifact to keep it)")
	}
	switch len(hs) {
	case 0:
		return "the answer the gate gave holds every finding (this run wrote no SARIF file, and the response is not embedded)"
	case 1:
		return hs[0] + " holds every finding"
	}
	return strings.Join(hs[:len(hs)-1], ", ") + " and " + hs[len(hs)-1] + " hold every finding"
}

// CheckOptions are what a gate's check run is planned from besides its
// response.
type CheckOptions struct {
	// Head reads files at the commit reported on, to place findings on
	// their lines (nil: the locations' own lines).
	Head FileReader
	// Links links locations to their lines; zero: no links.
	Links Links
	// Plan is the gate's review plan (nil: no review): the check run lists
	// first what the review does not show.
	Plan *ReviewPlan
	// Note, when set, is agc-action's own Markdown put first in the
	// summary (an escalation), written as it is: never text from an answer.
	Note string
	// Raw is the response as the gate wrote it, embedded in the text when
	// it fits (EmbedResponse).
	Raw []byte
	// Record is agc-action's binding record (carry.EmbedBinding), written
	// at the start of the text when it fits beside the response; "": none.
	Record string
	// SARIF is where the SARIF file is, for what the check run leaves out.
	SARIF SARIFPlace
}

// CheckOutput is a gate's check run as planned: output.summary and
// output.text within MaxCheckText each, and the annotations.
type CheckOutput struct {
	Summary, Text string
	Annotations   []*github.CheckRunAnnotation
	// Listed counts the findings the review does not show that the check
	// run lists; LeftOut those of them it has no room for, which it says
	// are in the places SARIFPlace names. Every finding is inline, listed
	// in the review body, Listed or LeftOut.
	Listed, LeftOut int
}

// PlanCheck plans gate r's check run. The summary opens with the
// headline, o.Note, where the findings are when not all are on the pull
// request, and the answer's facts. When every finding fits, a table per
// file and every finding in full follow (as in JobSummary). When not, the
// findings the review does not show are listed a compact line each
// (checkLine), in the summary and then in the text, before any the review
// shows; each line's location is linked while the room allows every line
// its link, and the later ones are not, so that more fit. What still does
// not fit is counted, saying where it is. The text holds o.Record, the
// lines that went there, and the response embedded when it fits (the
// embedded response takes the text's room first: carrying reads it).
func PlanCheck(r *agc.Response, o CheckOptions) CheckOutput {
	embed := EmbedResponse(o.Raw)
	embedded := Embedded(embed)
	out := CheckOutput{Text: CheckText(embed, o.Record)}
	record := strings.TrimSuffix(out.Text, embed)
	var withLine int
	out.Annotations, withLine = Annotations(r, o.Head, MaxAnnotationsPerGate)
	n := checkCounts{plan: o.Plan, annotated: len(out.Annotations), withLine: withLine, holders: o.SARIF.holders(embedded)}
	placed := summaryOrder(r, o.Head)
	lacking, shown := splitShown(placed, o.Plan)
	n.listed = len(lacking)
	if s, left := gateTable(gateHead(r, checkNote(o.Note, n)), r.Gate.ID, placed, o.Links, MaxCheckText, n.holders); left == 0 {
		out.Summary, out.Listed = s, len(lacking)
		return out
	}
	// The head with the widest counts bounds the head written.
	wide := n
	wide.listed, wide.leftOut = len(r.Findings), len(r.Findings)
	l := planLines(lacking, shown, o.Plan != nil, o.Links, MaxCheckText-len(gateHead(r, checkNote(o.Note, wide))),
		MaxCheckText-len(out.Text))
	n.listed, n.leftOut = l.lacking, len(lacking)-l.lacking
	out.Summary = gateHead(r, checkNote(o.Note, n)) + l.summary
	if l.text != "" {
		out.Text = record + l.text + "\n" + embed
	}
	out.Listed, out.LeftOut = n.listed, n.leftOut
	return out
}

// CheckText is a check run's output.text: record (agc-action's binding
// record, carry.EmbedBinding, which carry reads only there) first, then
// embed (EmbedResponse). A record that does not fit beside embed is left
// out: the run is then not carried.
func CheckText(embed, record string) string {
	if len(record)+len(embed) > MaxCheckText {
		return embed
	}
	return record + embed
}

// splitShown splits placed (in order) into the findings plan's review
// does not show and those it shows (inline, or listed in its body).
func splitShown(placed []Placed, p *ReviewPlan) (lacking, shown []Placed) {
	if p == nil {
		return placed, nil
	}
	in := map[*agc.Finding]bool{}
	for _, pl := range p.Placed {
		if pl.Channel == ChannelInline {
			in[pl.Finding] = true
		}
	}
	for i, pl := range byFile(p.Placed) {
		if i == p.Listed {
			break
		}
		in[pl.Finding] = true
	}
	for _, pl := range placed {
		if in[pl.Finding] {
			shown = append(shown, pl)
		} else {
			lacking = append(lacking, pl)
		}
	}
	return lacking, shown
}

// checkCounts are what a check run's note says: the review's counts (plan),
// the annotations, the findings the review lacks that the check run lists
// and leaves out, and what holds every finding.
type checkCounts struct {
	plan                *ReviewPlan
	annotated, withLine int
	listed, leftOut     int
	holders             string
}

// checkNote is own (agc-action's note, or "") then the paragraph saying
// where the gate's findings are when not all of them are on the pull
// request in full: how many are inline, listed in the review body, listed
// only in this check run, and not listed anywhere on GitHub, with what
// holds them, and how many are annotations. The numbers add up to the
// findings. It is own alone when nothing was left out.
func checkNote(own string, n checkCounts) string {
	var parts []string
	label := "**GitHub's limits**"
	if p := n.plan; p != nil && (p.Unlisted > 0 || p.Capped > 0 || p.NoReview) {
		label = "**Write ceiling** (docs/github.md)"
		if p.NoReview {
			parts = append(parts, fmt.Sprintf("this run's reviews were spent (at most %d a run), so this gate has no review this time.", MaxReviewsPerRun))
		}
		s := fmt.Sprintf("on the pull request, %d findings are inline comments and %d are listed in the review body", p.Inline, p.Listed)
		if n.listed > 0 {
			s += fmt.Sprintf("; %d are listed only in this check run", n.listed)
		}
		parts = append(parts, s+".")
	}
	if n.leftOut > 0 {
		parts = append(parts, count(n.leftOut, "finding is", "findings are")+
			" not listed in this check run (GitHub limits its summary and its text to 65,535 characters each).")
	}
	if n.annotated < n.withLine {
		label = "**Write ceiling** (docs/github.md)"
		parts = append(parts, fmt.Sprintf("The first %d of the %d findings with a line are annotations (at most %d a check run).",
			n.annotated, n.withLine, MaxAnnotationsPerGate))
	}
	if len(parts) == 0 {
		return own
	}
	if own != "" {
		own += "\n"
	}
	h := n.holders
	return own + fmt.Sprintf("> %s: %s %s.\n", label, strings.Join(parts, " "), strings.ToUpper(h[:1])+h[1:])
}

// maxLineWhat bounds a compact line's message, and maxLineClass its rule,
// in characters.
const (
	maxLineWhat  = 100
	maxLineClass = 80
)

// checkLine is one finding on one line: its severity mark, its location
// (path:line, linked to its lines when linked), its rule and its message,
// cut short.
func checkLine(p Placed, links Links, linked bool) string {
	where := render.CodeSpan(CutRunes(p.Finding.Location, 200))
	switch {
	case p.Pos.Path == "":
	case linked:
		where = links.Location(p.Pos, p.Finding.Location)
	default:
		where = render.CodeSpan(LineText(p.Pos))
	}
	mark, _, _ := strings.Cut(render.SeverityMark(p.Finding.Severity), " ")
	return "- " + mark + " " + where + " " + render.CodeSpan(short(p.Finding.Class, maxLineClass)) + ": " +
		render.Escape(short(p.Finding.What, maxLineWhat)) + "\n"
}

// short is s on one line with its spaces folded, cut to n characters
// with an ellipsis.
func short(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if c := CutRunes(s, n); c != s {
		return c + "…"
	}
	return s
}

// Headings and notes of a check run's lists.
const (
	lackingHeading = "Findings the review does not show"
	allHeading     = "Findings"
	shownHeading   = "\n#### Also on the pull request\n\n"
	continuedNote  = "\nThe list continues in this check run's details, below the summary.\n"
)

// checkLines is what planLines decided: the summary's list and the
// text's, and how many of the findings the review lacks they hold.
type checkLines struct {
	summary, text string
	lacking       int
}

// planLines lists lacking (then, when all of them fit with their links,
// shown) a compact line each in the summary's room and then the text's,
// in order, never past either. Every line gets its link when all fit so;
// else the first k do, k the most that leaves as many lines listed as
// none linked would. Budgets are bytes, which are never fewer than
// GitHub's characters.
func planLines(lacking, shown []Placed, review bool, links Links, sumRoom, textRoom int) checkLines {
	title := allHeading
	if review {
		title = lackingHeading
	}
	heading, continuedHead := "\n#### "+title+"\n\n", "#### "+title+", continued\n\n"
	linkNote := func(k, n int) string {
		if k == 0 {
			return "These lines do not link to their lines, so that more findings fit.\n\n"
		}
		return fmt.Sprintf("The first %d of these %d lines link to their lines; the others do not, so that more findings fit.\n\n", k, n)
	}
	rooms := [2]int{sumRoom - len(heading) - len(continuedNote) - len(linkNote(len(lacking), len(lacking))),
		textRoom - len(continuedHead) - 1}
	linked := make([]int, len(lacking))
	plain := make([]int, len(lacking))
	for i, p := range lacking {
		linked[i], plain[i] = len(checkLine(p, links, true)), len(checkLine(p, links, false))
	}
	// fill is how many lines fit, in order, when the first k are linked,
	// and how many of them the summary holds.
	fill := func(k int) (n, inSummary int) {
		left, f := rooms, 0
		for i := range lacking {
			c := plain[i]
			if i < k {
				c = linked[i]
			}
			if c > left[f] && f == 0 {
				f, inSummary = 1, i
			}
			if c > left[f] {
				return i, inSummary
			}
			left[f] -= c
		}
		if f == 0 {
			inSummary = len(lacking)
		}
		return len(lacking), inSummary
	}
	most, _ := fill(0)
	// k is the most links that list as many: fewer fit as more are linked.
	k := sort.Search(len(lacking)+1, func(k int) bool { n, _ := fill(k); return n < most }) - 1
	n, inSummary := fill(k)
	var sum, text strings.Builder
	sum.WriteString(heading)
	if k < n {
		sum.WriteString(linkNote(k, n))
	}
	for i, p := range lacking[:n] {
		line := checkLine(p, links, i < k)
		if i < inSummary {
			sum.WriteString(line)
			continue
		}
		if text.Len() == 0 {
			text.WriteString(continuedHead)
		}
		text.WriteString(line)
	}
	if n == len(lacking) && k == n && len(shown) > 0 {
		// Room left: the findings the review shows, linked, while they fit.
		room := rooms[0] - sum.Len() + len(heading)
		if text.Len() > 0 {
			room = 0
		}
		var also strings.Builder
		for _, p := range shown {
			line := checkLine(p, links, true)
			if also.Len()+len(shownHeading)+len(line) > room {
				break
			}
			also.WriteString(line)
		}
		if also.Len() > 0 {
			sum.WriteString(shownHeading + also.String())
		}
	}
	if text.Len() > 0 {
		sum.WriteString(continuedNote)
	}
	return checkLines{summary: sum.String(), text: text.String(), lacking: n}
}

// CutRunes returns the longest prefix of s with at most n runes: GitHub
// counts its limits in characters.
func CutRunes(s string, n int) string {
	if n <= 0 {
		return ""
	}
	i := 0
	for k := range s {
		if i == n {
			return s[:k]
		}
		i++
	}
	return s
}

// Annotations returns a check-run annotation for each of the first limit
// findings with a line (plain text: its message starts with path:line) (limit <= 0: all of them), and how many findings
// have a line.
func Annotations(r *agc.Response, head FileReader, limit int) (out []*github.CheckRunAnnotation, withLine int) {
	for i := range r.Findings {
		f := &r.Findings[i]
		pos := filePosition(f, head)
		if pos.Path == "" || pos.Start == 0 {
			continue
		}
		if withLine++; limit > 0 && len(out) >= limit {
			continue
		}
		level := "warning"
		if f.Severity == agc.Blocking {
			level = "failure"
		}
		out = append(out, &github.CheckRunAnnotation{
			Path: github.String(pos.Path), StartLine: github.Int(pos.Start), EndLine: github.Int(pos.End),
			AnnotationLevel: github.String(level), Title: github.String(CutRunes(f.Class+": "+f.ID, 255)),
			Message: github.String(CutRunes(LineText(pos)+": "+f.What+"\n"+f.Why, 60000)),
		})
	}
	return out, withLine
}

// StatusDescription is the verdict and counts, then the first blocking
// finding, cut to 140 characters on a rune boundary.
func StatusDescription(r *agc.Response) string {
	d := CheckTitle(r)
	if b := r.Blocking(); len(b) > 0 {
		d += ". " + strings.Join(strings.Fields(b[0].What), " ")
	}
	return CutRunes(d, MaxStatusDescribe)
}
