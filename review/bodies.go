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

// FileBody is the file-level comment on path: the findings ps in that file
// that cannot be inline.
func FileBody(gate, path string, ps []Placed) (body, hash string) {
	heading := fmt.Sprintf("**agc/%s**: findings in this file outside the lines this pull request changes.\n", render.Escape(gate))
	return groupBody(gate, heading, ps, func(h string) string {
		return FormatMarker(MarkFile, "gate", gate, "path", path, "hash", h)
	})
}

// ReviewBody is the body of r's review: the verdict, then the findings ps
// outside the pull request's files.
func ReviewBody(r *agc.Response, ps []Placed) (body, hash string) {
	gate := r.Gate.ID
	heading := fmt.Sprintf("**agc/%s**: verdict **%s**, %d findings. The check run agc/%s holds the whole response.\n",
		render.Escape(gate), render.Escape(r.Verdict), len(r.Findings), render.Escape(gate))
	if len(ps) > 0 {
		heading += "\nFindings outside this pull request's files:\n"
	}
	return groupBody(gate, heading, ps, func(h string) string {
		return FormatMarker(MarkReview, "gate", gate, "hash", h)
	})
}

// PartBody is the body of a further review that carries only new inline
// comments, n of them, as part k of parts (1-based).
func PartBody(gate string, n, k, parts int) string {
	return fmt.Sprintf("**agc/%s**: %d new findings on the lines this pull request changes (part %d of %d).\n",
		render.Escape(gate), n, k, parts)
}

// groupBody is a file-level comment or a review body carrying several
// findings: a heading, then each finding, cut cleanly before GitHub's limit,
// saying how many more the check run holds. marker makes the first marker
// line from the hash of the shown text.
func groupBody(gate, heading string, ps []Placed, marker func(hash string) string) (body, hash string) {
	const reserve = 1000 // the first marker, the end line, the "more" note
	var text strings.Builder
	text.WriteString(heading)
	var markers []string
	size := len(heading) + reserve
	shown := 0
	for i, p := range ps {
		block := fmt.Sprintf("\n#### %d. %s\n\n%s", i+1, render.Escape(p.Finding.What), findingText(p))
		m := FormatMarker(MarkFinding, "gate", gate, "id", MarkerID(p.Finding.ID))
		if size+len(block)+len(m)+1 > MaxBody {
			break
		}
		size += len(block) + len(m) + 1
		text.WriteString(block)
		markers = append(markers, m)
		shown++
	}
	if shown < len(ps) {
		fmt.Fprintf(&text, "\n%d more findings do not fit in this comment; the check run agc/%s lists them all.\n",
			len(ps)-shown, render.Escape(gate))
	}
	hash = contentHash(text.String())
	return withMarkers(append([]string{marker(hash)}, markers...), text.String()), hash
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
