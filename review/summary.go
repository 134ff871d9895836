package review

import (
	"fmt"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/render"
)

// JobSummary is r's section of a job summary, in at most limit bytes: its
// headline, note (agc-action's own Markdown, or ""), a table of its
// findings grouped by file (severity, the line linked, the rule linked to
// its help, the message), then every finding in full, folded. What does
// not fit is cut cleanly, between rows, saying how many findings are left
// out and where they are.
func JobSummary(r *agc.Response, note string, head FileReader, links Links, limit int) string {
	s, _ := gateTable(gateHead(r, note), r.Gate.ID, summaryOrder(r, head), links, limit,
		"the SARIF file (the Action's `sarif-file` output) holds every finding, and the check run agc/"+render.Escape(r.Gate.ID)+
			", when one is posted, lists those the pull request does not show or says where they are")
	return s
}

// JobSummaries is lead, then each gate's JobSummary (its note from notes)
// while the whole stays within MaxJobSummary, then how many answers are
// left out and more, a clause saying where their findings are.
func JobSummaries(lead string, gates []agc.Doc, notes map[string]string, head FileReader, links Links, more string) string {
	var b strings.Builder
	b.WriteString(lead)
	const moreRoom = 300 // the line saying how many answers are left out
	shown := 0
	for _, g := range gates {
		room := MaxJobSummary - b.Len() - moreRoom
		if room < 2000 {
			break
		}
		b.WriteString("\n" + JobSummary(g.Response, notes[g.Response.Gate.ID], head, links, room))
		shown++
	}
	if shown < len(gates) {
		fmt.Fprintf(&b, "\n%d of %d answers are not shown here (the job summary is limited to 1 MiB); %s.\n", len(gates)-shown, len(gates), more)
	}
	return b.String()
}

// gateHead is a gate summary's start: the headline, note (agc-action's
// own Markdown, or "") and the facts of the answer.
func gateHead(r *agc.Response, note string) string {
	head := GateHeadline(r) + "\n\n"
	if note != "" {
		head += note + "\n"
	}
	return head + responseFacts(r)
}

// gateTable is head, then placed as tables by file and every finding in
// full, within limit bytes: what does not fit is cut, the findings in
// full first, then rows, saying where the findings are (elsewhere, a
// clause true of this run: "the SARIF file ... holds every finding").
// left is how many rows were cut.
func gateTable(head, gate string, placed []Placed, links Links, limit int, elsewhere string) (s string, left int) {
	if len(placed) == 0 {
		return head, 0
	}
	rows := tableRows(gate, placed, links, "Not in a file", limit)
	if len(rows) == len(placed) {
		table := head + strings.Join(rows, "") + "\n"
		if full, ok := fullEntries(gate, placed, links, limit-len(table)); ok {
			if s := table + folded(count(len(placed), "finding in full", "findings in full"), full); len(s) <= limit {
				return s, 0
			}
		}
	}
	cutNote := func(left int) string {
		if left == 0 {
			return fmt.Sprintf("\nThe findings in full are left out to fit GitHub's limit: %s.\n", elsewhere)
		}
		return fmt.Sprintf("\n%s, to fit GitHub's limit: %s.\n",
			count(left, "more finding is not in this table", "more findings are not in this table"), elsewhere)
	}
	room := limit - len(head) - len(cutNote(len(placed)))
	var b strings.Builder
	n := 0
	for _, row := range rows {
		if b.Len()+len(row) > room {
			break
		}
		b.WriteString(row)
		n++
	}
	return head + b.String() + cutNote(len(placed)-n), len(placed) - n
}

// summaryOrder places r's findings (position only) as a table lists them
// (byFile): grouped by file, each file's by line, then those with no file.
func summaryOrder(r *agc.Response, head FileReader) []Placed {
	ps := make([]Placed, len(r.Findings))
	for i := range r.Findings {
		f := &r.Findings[i]
		ps[i] = Placed{Finding: f, Pos: filePosition(f, head), Channel: ChannelFile}
		if ps[i].Pos.Path == "" {
			ps[i].Channel = ChannelBody
		}
	}
	return byFile(ps)
}

// fullEntries is every finding in full, each under a heading naming its
// linked location, in the compact form of a comment; ok is false, and the
// work stops, once they take more than limit bytes.
func fullEntries(gate string, placed []Placed, links Links, limit int) (md string, ok bool) {
	var b strings.Builder
	for i, p := range placed {
		if b.Len() > limit {
			return "", false
		}
		w := Words(gate, p.Finding)
		fmt.Fprintf(&b, "##### %d. %s\n\n%s\n", i+1, links.Location(p.Pos, p.Finding.Location), render.Headline(p.Finding, w))
		if why := render.Why(p.Finding, w); why != "" {
			b.WriteString("\n" + why + "\n")
		}
		b.WriteString("\n" + render.Details(p.Finding, w) + "\n")
	}
	return b.String(), b.Len() <= limit
}

// maxFacts bounds the line of facts, in characters.
const maxFacts = 2000

// responseFacts is what a summary says of the answer as a whole that its
// headline does not: the subject and the coverage.
func responseFacts(r *agc.Response) string {
	s := fmt.Sprintf("Subject: %s %s", render.Escape(r.Subject.Kind), render.CodeSpan(r.Subject.Fingerprint))
	if r.Coverage.Complete {
		s += " · coverage complete"
	} else {
		s += " · coverage not complete"
	}
	if len(r.Coverage.NotChecked) > 0 {
		nc := make([]string, len(r.Coverage.NotChecked))
		for i, x := range r.Coverage.NotChecked {
			nc[i] = render.Escape(x)
		}
		s += "; not checked: " + strings.Join(nc, "; ")
	}
	// The judged party says how much was not checked: a bounded line.
	if c := CutRunes(s, maxFacts); c != s {
		s = strings.TrimRight(strings.TrimSuffix(c, "\\"), " ") + " …"
	}
	return s + "\n"
}
