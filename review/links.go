package review

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/agcgate/agc-action/render"
)

// Links makes links to the lines of files at the commit reported on:
// {Server}/{Repo}/blob/{SHA}/{path}#L10-L12. The zero Links makes none:
// a location is then shown as text.
type Links struct {
	Server string // GITHUB_SERVER_URL, e.g. https://github.com
	Repo   string // owner/name
	SHA    string // the commit reported on
}

// Blob is the URL of path's lines start..end at the commit (no line
// anchor when start is 0), or "" when l makes no links.
func (l Links) Blob(path string, start, end int) string {
	if l.Server == "" || l.Repo == "" || l.SHA == "" || path == "" {
		return ""
	}
	segs := strings.Split(path, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	u := strings.TrimRight(l.Server, "/") + "/" + l.Repo + "/blob/" + l.SHA + "/" + strings.Join(segs, "/")
	switch {
	case start <= 0:
	case end > start:
		u += "#L" + strconv.Itoa(start) + "-L" + strconv.Itoa(end)
	default:
		u += "#L" + strconv.Itoa(start)
	}
	return u
}

// LineText is a position as people write it: path, path:10 or
// path:10-12.
func LineText(pos Position) string {
	switch {
	case pos.Start <= 0:
		return pos.Path
	case pos.End > pos.Start:
		return pos.Path + ":" + strconv.Itoa(pos.Start) + "-" + strconv.Itoa(pos.End)
	}
	return pos.Path + ":" + strconv.Itoa(pos.Start)
}

// Location is a position as Markdown: path:line as a code span, linked to
// the lines at the commit when l makes links. A finding with no file
// shows its location as the gate wrote it.
func (l Links) Location(pos Position, location string) string {
	if pos.Path == "" {
		return render.CodeSpan(location)
	}
	return render.TrustedLink(render.CodeSpan(LineText(pos)), l.Blob(pos.Path, pos.Start, pos.End))
}

// Line is a position's line as Markdown for a table grouped by file:
// "10" or "10-12", linked; "file" when the finding has no line.
func (l Links) Line(pos Position) string {
	text := "file"
	if pos.Start > 0 {
		text = strings.TrimPrefix(LineText(pos), pos.Path+":")
	}
	return render.TrustedLink(text, l.Blob(pos.Path, pos.Start, pos.End))
}
