package review

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/render"
)

// MaxBody is GitHub's limit on a comment or review body, in characters.
const MaxBody = 65536

// findingText is what a comment shows for one finding: the rendered
// finding (whose remedy shows a patch's edits as a diff block), then the
// change as a suggestion when GitHub can take it as one, or, when its new
// text holds characters a reader cannot see, why it is not one and the
// new lines with those characters written out.
func findingText(p Placed) string {
	text := render.FindingMarkdown(p.Finding)
	c := p.Pos.Change
	switch {
	case c == nil:
	case p.Suggest:
		text += "\n**Suggested change:**\n\n" + c.Suggestion()
	default:
		if hidden := c.Hidden(); len(hidden) > 0 {
			text += "\n" + hiddenNote(c, hidden)
		}
	}
	return text
}

// InlineBody is an inline comment's body with its marker; hash covers the
// shown text only.
func InlineBody(gate string, p Placed) (body, hash string) {
	text := findingText(p)
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

// ReviewBody is the body of r's review: the verdict and where the findings
// are, then the findings that are not inline, listed (in files of the pull
// request, by file, then outside its files): each in full when all of them
// fit, else each on one line, cut cleanly before GitHub's limit. shown is
// how many of listed it holds; the rest, it says, are in the check run and
// the SARIF file.
func ReviewBody(r *agc.Response, n BodyCounts, listed []Placed) (body, hash string, shown int) {
	return ReviewBodyNote(r, n, listed, "")
}

// ReviewBodyNote is ReviewBody opened by note, agc-action's own Markdown
// (an escalation), written as it is: never pass it text from an answer.
func ReviewBodyNote(r *agc.Response, n BodyCounts, listed []Placed, note string) (body, hash string, shown int) {
	gate := r.Gate.ID
	marker := func(h string) string { return FormatMarker(MarkReview, "gate", gate, "hash", h) }
	if note != "" {
		note += "\n"
	}
	// The heading's length barely depends on the counts in it: measure it
	// with every finding shown.
	room := MaxBody - len(withMarkers([]string{marker(contentHash())}, note+bodyHeading(r, n, len(listed), true))) - 200
	blocks, markers := listBlocks(gate, listed, room, fullEntry)
	brief := len(markers) < len(listed)
	if brief {
		blocks, markers = listBlocks(gate, listed, room, briefEntry)
	}
	text := note + bodyHeading(r, n, len(markers), brief) + blocks
	hash = contentHash(text)
	return withMarkers(append([]string{marker(hash)}, markers...), text), hash, len(markers)
}

// listBlocks writes the listed findings with entry, under a heading per
// file and one for the findings outside the pull request's files, while
// they fit in room; it returns the text and a marker per finding written.
func listBlocks(gate string, listed []Placed, room int, entry func(n int, p Placed) string) (string, []string) {
	var b strings.Builder
	var markers []string
	size, path, outside := 0, "", false
	for i, p := range listed {
		var block strings.Builder
		switch {
		case p.Channel == ChannelFile && (i == 0 || p.Pos.Path != path):
			path = p.Pos.Path
			fmt.Fprintf(&block, "\n### %s\n\n", render.Escape(path))
		case p.Channel != ChannelFile && !outside:
			outside = true
			block.WriteString("\n### Outside this pull request's files\n\n")
		}
		block.WriteString(entry(i+1, p))
		m := FormatMarker(MarkFinding, "gate", gate, "id", MarkerID(p.Finding.ID))
		if size+block.Len()+len(m)+1 > room {
			break
		}
		size += block.Len() + len(m) + 1
		b.WriteString(block.String())
		markers = append(markers, m)
	}
	return b.String(), markers
}

// fullEntry is a listed finding in full, as a comment would show it.
func fullEntry(n int, p Placed) string {
	return fmt.Sprintf("#### %d. %s\n\n%s\n", n, render.Escape(p.Finding.What), findingText(p))
}

// briefEntry is a listed finding on one line: severity, what and id.
func briefEntry(n int, p Placed) string {
	f := p.Finding
	return fmt.Sprintf("- **%d.** %s: %s (%s)\n", n, render.Escape(f.Severity), render.Escape(CutRunes(f.What, 300)), render.Escape(CutRunes(f.ID, 300)))
}

// bodyHeading says the verdict, and where each of r's findings is: inline,
// listed below, or only in the check run and the SARIF file.
func bodyHeading(r *agc.Response, n BodyCounts, shown int, brief bool) string {
	gate := render.Escape(r.Gate.ID)
	var b strings.Builder
	fmt.Fprintf(&b, "**agc/%s**: verdict **%s**, %s. The check run agc/%s holds the whole response.\n",
		gate, render.Escape(r.Verdict), count(len(r.Findings), "finding", "findings"), gate)
	var where []string
	if n.Inline > 0 {
		where = append(where, count(n.Inline, "is an inline comment", "are inline comments")+" on the lines this pull request changes.")
	}
	switch {
	case shown > 0 && brief:
		where = append(where, fmt.Sprintf("%s below, one line each to fit; the check run agc/%s shows each in full.", count(shown, "is listed", "are listed"), gate))
	case shown > 0:
		where = append(where, count(shown, "is listed", "are listed")+" below.")
	}
	if n.Capped > 0 {
		where = append(where, fmt.Sprintf("%s: a gate has at most %d (the write ceiling, docs/github.md).",
			count(n.Capped, "finding on changed lines is not an inline comment", "findings on changed lines are not inline comments"), MaxInlinePerGate))
	}
	if rest := len(r.Findings) - n.Inline - shown; rest > 0 {
		where = append(where, fmt.Sprintf("%s: the check run agc/%s (its summary and the response embedded in it) "+
			"and the SARIF file (code scanning, or the Action's sarif-file output) hold every finding.", count(rest, "is not in this review", "are not in this review"), gate))
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
	return fmt.Sprintf("**agc/%s**: %d new findings on the lines this pull request changes.\n", render.Escape(gate), n)
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
