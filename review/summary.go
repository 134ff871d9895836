package review

import (
	"fmt"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/render"
)

// SummaryOptions say what a gate's summary links and where it says the
// findings it leaves out are.
type SummaryOptions struct {
	// Head reads files at the commit reported on, to place findings on
	// their lines (nil: the locations' own lines).
	Head FileReader
	// Links makes each location a link to its lines; zero: no links.
	Links Links
	// Elsewhere says where every finding is, for what a cut leaves out,
	// as a clause: "the SARIF file (the Action's sarif-file output) holds
	// every finding". It must be true of this run.
	Elsewhere string
	// Limit is the most bytes the summary may have (GitHub counts
	// characters; a byte count is never fewer).
	Limit int
}

// GateSummary is one gate's answer for a check run's summary or the job
// summary: its headline, note (agc-action's own Markdown, or ""), a table
// of its findings grouped by file (severity, the line linked, the rule
// linked to its help, the message), then every finding in full, folded.
// What does not fit in o.Limit is cut cleanly, between rows, saying how
// many findings are left out and where they are.
func GateSummary(r *agc.Response, note string, o SummaryOptions) string {
	s, _ := gateTable(gateHead(r, note), r.Gate.ID, summaryOrder(r, o.Head), o)
	return s
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
// full, within o.Limit bytes: what does not fit is cut, the findings in
// full first, then rows, saying where the findings are (o.Elsewhere).
// left is how many rows were cut.
func gateTable(head, gate string, placed []Placed, o SummaryOptions) (s string, left int) {
	if len(placed) == 0 {
		return head, 0
	}
	rows := tableRows(gate, placed, o.Links, "Not in a file", o.Limit)
	if len(rows) == len(placed) {
		table := head + strings.Join(rows, "") + "\n"
		if full, ok := fullEntries(gate, placed, o.Links, o.Limit-len(table)); ok {
			if s := table + folded(count(len(placed), "finding in full", "findings in full"), full); len(s) <= o.Limit {
				return s, 0
			}
		}
	}
	cutNote := func(left int) string {
		if left == 0 {
			return fmt.Sprintf("\nThe findings in full are left out to fit GitHub's limit: %s.\n", o.Elsewhere)
		}
		return fmt.Sprintf("\n%s, to fit GitHub's limit: %s.\n",
			count(left, "more finding is not in this table", "more findings are not in this table"), o.Elsewhere)
	}
	room := o.Limit - len(head) - len(cutNote(len(placed)))
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
