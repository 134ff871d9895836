package review

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/render"
	"github.com/go-json-experiment/json"
)

// MaxBody is GitHub's limit on a comment or review body, in characters.
const MaxBody = 65536

// helpMember is the finding member package sarif writes the help URI of
// a finding's rule in (sarif.HelpMember).
const helpMember = "agc-action/helpUri"

// Words is how gate's finding f is worded: a finding converted from SARIF
// (it carries the sarif member) speaks of its linter, the gate, and links
// its rule's help page.
func Words(gate string, f *agc.Finding) render.Words {
	var w render.Words
	if _, ok, err := agc.Member(f.Unknown, sarifMember); !ok || err != nil {
		return w
	}
	w.Tool = gate
	var help string
	if v, ok, _ := agc.Member(f.Unknown, helpMember); ok && json.Unmarshal(v, &help) == nil {
		w.HelpURI = help
	}
	return w
}

// findingText is what a comment shows for one finding of gate: a
// headline (severity, rule linked to its help, what), the why when it
// says more, the change as a suggestion when GitHub can take it as one (or,
// when its new text holds characters a reader cannot see, why it is not
// one and the new lines with those characters written out), then the id,
// status, remedy and check folded away.
func findingText(gate string, p Placed) string {
	w := Words(gate, p.Finding)
	w.SuggestionShown = p.Suggest && p.Pos.Change != nil
	var b strings.Builder
	b.WriteString(render.Headline(p.Finding, w) + "\n")
	if why := render.Why(p.Finding, w); why != "" {
		b.WriteString("\n" + why + "\n")
	}
	switch c := p.Pos.Change; {
	case c == nil:
	case w.SuggestionShown:
		b.WriteString("\n" + c.Suggestion())
	default:
		if hidden := c.Hidden(); len(hidden) > 0 {
			b.WriteString("\n" + hiddenNote(c, hidden))
		}
	}
	b.WriteString("\n" + folded("Details", render.Details(p.Finding, w)))
	return b.String()
}

// folded is Markdown inside a <details> block that starts closed.
func folded(summary, md string) string {
	return "<details><summary>" + summary + "</summary>\n\n" + strings.TrimRight(md, "\n") + "\n\n</details>\n"
}

// InlineBody is an inline comment's body with its marker; hash covers the
// shown text only.
func InlineBody(gate string, p Placed) (body, hash string) {
	text := findingText(gate, p)
	hash = contentHash(text)
	m := FormatMarker(MarkFinding, "gate", gate, "id", MarkerID(p.Finding.ID), "hash", hash)
	if len(withMarkers([]string{m}, text)) > MaxBody {
		text = fmt.Sprintf("This finding is too long for a review comment (%d characters); the check run agc/%s shows it in full.\n",
			len(text), render.Escape(gate))
	}
	return withMarkers([]string{m}, text), hash
}

// BodyCounts are what a review body says about the findings it does not
// list: how many are inline comments, how many of those listed could have
// been inline but for the ceiling, and how many inline comments show an
// earlier text because the ceiling left their edit to a later run.
type BodyCounts struct {
	Inline, Capped, DeferredEdits int
}

// ReviewBody is the body of r's review: the headline (verdict, counts,
// round) and where the findings are, then the findings that are not
// inline, one row each in a table per file of the pull request (each line
// linked at the commit reported on), then those outside its files, cut
// cleanly before GitHub's limit. shown is how many of listed it holds; the
// rest, it says, are in the check run and the SARIF file. note, when set,
// opens it: agc-action's own Markdown (an escalation), written as it is;
// never pass it text from an answer.
func ReviewBody(r *agc.Response, n BodyCounts, listed []Placed, note string, links Links) (body, hash string, shown int) {
	gate := r.Gate.ID
	marker := func(h string) string { return FormatMarker(MarkReview, "gate", gate, "hash", h) }
	if note != "" {
		note += "\n"
	}
	// The heading's length barely depends on the counts in it: measure it
	// with every finding shown.
	room := MaxBody - len(withMarkers([]string{marker(contentHash())}, note+bodyHeading(r, n, len(listed)))) - 200
	blocks, markers := listBlocks(gate, listed, room, links)
	head := note + bodyHeading(r, n, len(markers))
	text := head + blocks
	// The hash leaves out lines and links, as an inline comment's does: a
	// finding that only moved, or a new head, edits nothing, and a body
	// that stays keeps links that are right for the commit they name.
	moved := make([]Placed, len(markers))
	for i, p := range listed[:len(markers)] {
		p.Pos.Start, p.Pos.End = 0, 0
		moved[i] = p
	}
	hash = contentHash(head + strings.Join(tableRows(gate, moved, Links{}, outsideFiles, -1), ""))
	return withMarkers(append([]string{marker(hash)}, markers...), text), hash, len(markers)
}

// outsideFiles heads the review body's findings outside the pull
// request's files.
const outsideFiles = "Outside this pull request's files"

// listBlocks writes the listed findings as table rows, under a heading
// per file (linked at the commit) and one for the findings outside the
// pull request's files, while they fit in room; it returns the text and a
// marker per finding written.
func listBlocks(gate string, listed []Placed, room int, links Links) (string, []string) {
	var b strings.Builder
	var markers []string
	size := 0
	for i, row := range tableRows(gate, listed, links, outsideFiles, room) {
		m := FormatMarker(MarkFinding, "gate", gate, "id", MarkerID(listed[i].Finding.ID))
		if size+len(row)+len(m)+1 > room {
			break
		}
		size += len(row) + len(m) + 1
		b.WriteString(row)
		markers = append(markers, m)
	}
	return b.String(), markers
}

// tableRows are the table rows of placed (grouped by file, then those in
// no file of the pull request under the heading other), each file's first
// row opening its table under its heading: cutting between two rows leaves
// no table open. With limit >= 0 it stops after the row that takes the
// rows past limit bytes: no caller keeps more, and a table of thousands
// of findings costs what the rows that fit cost.
func tableRows(gate string, placed []Placed, links Links, other string, limit int) []string {
	rows := make([]string, 0, min(len(placed), 1024))
	path, inOther, size := "", false, 0
	for i, p := range placed {
		if limit >= 0 && size > limit {
			break
		}
		var b strings.Builder
		switch {
		case p.Channel == ChannelFile && (i == 0 || p.Pos.Path != path):
			path = p.Pos.Path
			b.WriteString("\n" + FileHeading(path, links) + "\n" + tableHead("Line"))
		case p.Channel != ChannelFile && !inOther:
			inOther = true
			b.WriteString("\n#### " + other + "\n\n" + tableHead("Location"))
		}
		b.WriteString(tableRow(gate, p, links, p.Channel == ChannelFile))
		rows = append(rows, b.String())
		size += b.Len()
	}
	return rows
}

// FileHeading is the heading of a file's findings, linked to the file at
// the commit.
func FileHeading(path string, links Links) string {
	return "#### " + render.TrustedLink(render.CodeSpan(path), links.Blob(path, 0, 0)) + "\n"
}

// tableHead opens a table of findings whose second column is col.
func tableHead(col string) string {
	return "| | " + col + " | Rule | Message |\n|---|---|---|---|\n"
}

// tableRow is one finding as a row: its severity mark, its line linked
// (or, outside a file's table, its whole location), its rule linked to its
// help page, and its what, on one line.
func tableRow(gate string, p Placed, links Links, inFile bool) string {
	w := Words(gate, p.Finding)
	var where string
	switch {
	case inFile:
		where = links.Line(p.Pos)
	case p.Pos.Start > 0:
		where = links.Location(p.Pos, p.Finding.Location)
	default:
		// Outside the pull request's files and with no line, a location
		// may name no file ("Bash.command"): no link that could be broken.
		where = render.CodeSpan(p.Finding.Location)
	}
	what := render.Escape(CutRunes(strings.Join(strings.Fields(p.Finding.What), " "), 300))
	return fmt.Sprintf("| %s | %s | %s | %s |\n", render.SeverityMark(p.Finding.Severity), cell(where), cell(render.Rule(p.Finding.Class, w)), what)
}

// cell makes Markdown safe in a table cell: GFM splits a row at every "|"
// not after a backslash, inside code spans too, and removes the backslash
// before it splits.
func cell(md string) string {
	var b strings.Builder
	for i := 0; i < len(md); i++ {
		if md[i] == '|' && (i == 0 || md[i-1] != '\\') {
			b.WriteByte('\\')
		}
		b.WriteByte(md[i])
	}
	return b.String()
}

// bodyHeading is the gate's headline, then where each of r's findings is:
// inline, listed below, or in the check run (which lists them, or says
// where those it cannot hold are: PlanCheck).
func bodyHeading(r *agc.Response, n BodyCounts, shown int) string {
	gate := render.Escape(r.Gate.ID)
	var b strings.Builder
	b.WriteString(GateHeadline(r) + "\n")
	var where []string
	if n.Inline > 0 {
		where = append(where, count(n.Inline, "is an inline comment", "are inline comments")+" on the lines this pull request changes.")
	}
	if shown > 0 {
		where = append(where, count(shown, "is listed", "are listed")+" below.")
	}
	if n.Capped > 0 {
		where = append(where, fmt.Sprintf("%s: a gate has at most %d (the write ceiling, docs/github.md).",
			count(n.Capped, "finding on changed lines is not an inline comment", "findings on changed lines are not inline comments"), MaxInlinePerGate))
	}
	if rest := len(r.Findings) - n.Inline - shown; rest > 0 {
		where = append(where, fmt.Sprintf("%s: the check run agc/%s lists them, and says where any it has no room for are.",
			count(rest, "is not in this review", "are not in this review"), gate))
	}
	if n.DeferredEdits > 0 {
		where = append(where, fmt.Sprintf("%s of their finding; later runs update them (at most %d edits a run).",
			count(n.DeferredEdits, "inline comment shows an earlier text", "inline comments show an earlier text"), MaxEditsPerRun))
	}
	if len(where) > 0 {
		b.WriteString("\n" + strings.Join(where, " ") + "\n")
	}
	return b.String()
}

// GateHeadline is a gate's answer on one line: the check's name, the
// verdict with its mark, the counts, the round and what was carried.
func GateHeadline(r *agc.Response) string {
	blocking := len(r.Blocking())
	s := fmt.Sprintf("**agc/%s** · %s · %s, %d blocking, %d advisory · round %d of %d",
		render.Escape(r.Gate.ID), verdictMark(r.Verdict), count(len(r.Findings), "finding", "findings"),
		blocking, len(r.Findings)-blocking, r.Attempt.N, r.Attempt.Budget)
	if len(r.Carried) > 0 {
		s += " · " + count(len(r.Carried), "finding carried", "findings carried")
	}
	return s
}

// verdictMark is a verdict with a mark.
func verdictMark(v string) string {
	switch v {
	case agc.Allow:
		return "✅ allow"
	case agc.Repaired:
		return "✅ repaired"
	case agc.Block:
		return "⛔ block"
	case agc.Escalate:
		return "✋ escalate"
	}
	return "❔ " + render.Escape(v)
}

// count is n followed by one or many.
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// NewCommentsBody is the body of a review that carries only n new inline
// comments, when the latest review's body is still current.
func NewCommentsBody(gate string, n int) string {
	return fmt.Sprintf("**agc/%s**: %s on the lines this pull request changes.\n", render.Escape(gate), count(n, "new finding", "new findings"))
}

// maxMarkerID bounds a finding id as a marker carries it: ids have no
// length limit, and percent-encoding can make one nine times longer.
const maxMarkerID = 512

// MarkerID is how a marker names a finding: its id, or when that is long,
// the SHA-256 of it.
func MarkerID(id string) string {
	if len(id) <= maxMarkerID {
		return id
	}
	sum := sha256.Sum256([]byte(id))
	return "sha256:" + hex.EncodeToString(sum[:])
}
