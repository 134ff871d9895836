// Package udiff reads a unified diff, the output of a fixer (gofmt -d,
// ruff format --diff, terraform fmt -diff, or git diff after prettier
// --write or eslint --fix), as an AGC gate: one finding per hunk, whose
// patch remedy turns the file as it is into the fixer's output
// (docs/rdf-mapping.md, "A fixer's diff"). The old side of the diff is the
// file under review; the new side is what the fixer wants.
//
// Pure, no I/O of its own: source files are read only through the fs.FS
// it is given.
package udiff

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/agcgate/agc-action/diag"
)

// File is one file's changes.
type File struct {
	Path  string // the new side's path, prefixes (a/, b/, old/, new/) left as written
	Old   string // the old side's path
	Hunks []Hunk
	Line  int // the line of its "+++" header
}

// Hunk is one "@@ -a,b +c,d @@" block. OldStart..OldStart+OldLines-1 are
// the old side's lines; for OldLines 0 the hunk inserts after OldStart.
type Hunk struct {
	OldStart, OldLines int
	NewStart, NewLines int
	Lines              []Line
	Line               int // the line of its "@@" header
}

// Line is one line of a hunk: Op ' ', '-' or '+', and its text with its
// line break, none when the diff says "\ No newline at end of file".
type Line struct {
	Op   byte
	Text string
}

// Parse reads every file of a unified diff. Lines outside files and hunks
// (git's headers, "Only in …") are skipped. An empty input is no change.
func Parse(name string, data []byte) ([]File, error) {
	p := &parser{name: name}
	lines := bytes.SplitAfter(data, []byte("\n"))
	for p.i = 0; p.i < len(lines); p.i++ {
		l := string(lines[p.i])
		switch {
		case strings.HasPrefix(l, "--- ") && p.i+1 < len(lines) && strings.HasPrefix(string(lines[p.i+1]), "+++ "):
			p.files = append(p.files, File{Old: headerPath(l[4:]), Path: headerPath(string(lines[p.i+1])[4:]), Line: p.i + 2})
			p.i++
		case strings.HasPrefix(l, "@@ "):
			if len(p.files) == 0 {
				return nil, p.errorf("a hunk before any --- / +++ file header")
			}
			if err := p.hunk(lines); err != nil {
				return nil, err
			}
		}
	}
	return p.files, nil
}

type parser struct {
	name  string
	i     int
	files []File
}

func (p *parser) errorf(format string, args ...any) error {
	return diag.Errorf(diag.Place{File: p.name, Line: p.i + 1}, format, args...)
}

// hunk reads the hunk whose header is line p.i, leaving p.i on its last line.
func (p *parser) hunk(lines [][]byte) error {
	h := Hunk{Line: p.i + 1}
	if !parseHeader(string(lines[p.i]), &h) {
		return p.errorf("malformed hunk header %q", strings.TrimRight(string(lines[p.i]), "\r\n"))
	}
	oldLeft, newLeft := h.OldLines, h.NewLines
	for oldLeft > 0 || newLeft > 0 {
		p.i++
		if p.i >= len(lines) || len(lines[p.i]) == 0 {
			return p.errorf("the hunk at line %d ends early: %d old and %d new lines missing", h.Line, oldLeft, newLeft)
		}
		l := string(lines[p.i])
		op := l[0]
		if l == "\n" || l == "\r\n" {
			op, l = ' ', " "+l // an empty context line whose space was trimmed
		}
		switch op {
		case ' ':
			oldLeft--
			newLeft--
		case '-':
			oldLeft--
		case '+':
			newLeft--
		case '\\':
			noNewline(&h)
			continue
		default:
			return p.errorf("unexpected line in the hunk at line %d (%d old and %d new lines missing)", h.Line, oldLeft, newLeft)
		}
		if oldLeft < 0 || newLeft < 0 {
			return p.errorf("the hunk at line %d has more lines than its header says", h.Line)
		}
		h.Lines = append(h.Lines, Line{Op: op, Text: l[1:]})
	}
	if p.i+1 < len(lines) && bytes.HasPrefix(lines[p.i+1], []byte(`\`)) {
		p.i++
		noNewline(&h)
	}
	f := &p.files[len(p.files)-1]
	f.Hunks = append(f.Hunks, h)
	return nil
}

// noNewline drops the line break of the hunk's last line.
func noNewline(h *Hunk) {
	if n := len(h.Lines); n > 0 {
		t := h.Lines[n-1].Text
		t = strings.TrimSuffix(t, "\n")
		h.Lines[n-1].Text = strings.TrimSuffix(t, "\r")
	}
}

// parseHeader reads "@@ -a[,b] +c[,d] @@…".
func parseHeader(l string, h *Hunk) bool {
	f := strings.Fields(l)
	if len(f) < 4 || f[0] != "@@" || f[3] != "@@" || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return false
	}
	var ok1, ok2 bool
	h.OldStart, h.OldLines, ok1 = parseRange(f[1][1:])
	h.NewStart, h.NewLines, ok2 = parseRange(f[2][1:])
	return ok1 && ok2
}

func parseRange(s string) (start, n int, ok bool) {
	a, b, hasN := strings.Cut(s, ",")
	start, err := strconv.Atoi(a)
	if err != nil || start < 0 {
		return 0, 0, false
	}
	n = 1
	if hasN {
		if n, err = strconv.Atoi(b); err != nil || n < 0 {
			return 0, 0, false
		}
	}
	return start, n, n < 1<<24
}

// headerPath is a ---/+++ header's path, without a tab-separated timestamp
// or quotes.
func headerPath(s string) string {
	s = strings.TrimRight(s, "\r\n")
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	if uq, err := strconv.Unquote(s); err == nil && strings.HasPrefix(s, `"`) {
		s = uq
	}
	return s
}

// Old and New are the hunk's text on each side.
func (h *Hunk) Old() string { return h.side('+') }

// New is the hunk's text after the change.
func (h *Hunk) New() string { return h.side('-') }

func (h *Hunk) side(skip byte) string {
	var b strings.Builder
	for _, l := range h.Lines {
		if l.Op != skip {
			b.WriteString(l.Text)
		}
	}
	return b.String()
}
