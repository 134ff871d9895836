package udiff

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/agcgate/agc-action/textedit"
)

// ToAGCOptions tune ToAGC.
type ToAGCOptions struct {
	// FS is the source root, holding the files as they are (the old side).
	FS fs.FS
	// Gate and Class are the response's gate id and its findings' class
	// (Class "": the gate id).
	Gate, Class string
	// Advisory makes the findings advisory (--fail-level none); otherwise
	// every hunk blocks: the file is not as the fixer writes it.
	Advisory bool
	// Input is the diff, whose hash is the subject's fingerprint.
	Input []byte

	// lineScans and findScans, if not nil, count the bytes of files read
	// to find where the hunks' lines start and to make their find texts
	// unique (textedit.Index), for the test that these stay linear.
	lineScans, findScans *diag.ScanCounter
	// maxEditText, if not 0, lowers the bound of the patch remedies' text
	// (textedit.MaxEditText), for the test of the bound.
	maxEditText int
}

// ToAGC makes one response of the files' hunks, one finding per hunk. The
// lint name the hunks that could not become a patch remedy.
func ToAGC(name string, files []File, opts ToAGCOptions) (*agc.Response, []diag.Lint) {
	sum := sha256.Sum256(opts.Input)
	class := opts.Class
	if class == "" {
		class = opts.Gate
	}
	r := agc.NewResponse(opts.Gate, "sha256:"+hex.EncodeToString(sum[:]))
	r.Coverage = agc.Coverage{Complete: true, Classes: []string{class}}
	c := &converter{name: name, opts: opts, class: class, edits: textedit.Budget{Max: opts.maxEditText}}
	ids := agc.FindingIDs{}
	for _, f := range files {
		p, data := c.resolve(f)
		if p == "" {
			continue // a deleted file
		}
		t := newText(data, f.Hunks, c.opts.lineScans, c.opts.findScans)
		for i := range f.Hunks {
			fd := c.finding(p, t, i, &f.Hunks[i])
			fd.ID = ids.Unique(fd.ID)
			if fd.Severity == agc.Blocking {
				r.Verdict = agc.Block
			}
			r.Findings = append(r.Findings, fd)
		}
	}
	return r, c.lints.List()
}

type converter struct {
	name  string
	opts  ToAGCOptions
	class string
	lints diag.Lints // the first diag.MaxLints, and how many more
	// edits is what is left for the text of the patch remedies: a hunk's
	// context is widened, so a diff of many small hunks could otherwise
	// make far more text than it holds.
	edits textedit.Budget
}

// text is a file under the source root (data nil: none) as its hunks
// need it, found once for all of them: a hunk's line was found by
// counting the file's lines from its start and its find texts by reading
// the whole file, O(hunks × file) for a diff of many hunks of one file.
type text struct {
	data  []byte
	index *textedit.Index
	// starts holds, for hunk i, diag.LineOffset of its old line (oldLine)
	// at 2i and of the line after its first (firstLine) at 2i+1: -1 when
	// there is no such line.
	starts []int
}

func newText(data []byte, hunks []Hunk, lineScans, findScans *diag.ScanCounter) *text {
	if data == nil {
		return &text{}
	}
	lines := make([]int, 0, 2*len(hunks))
	for i := range hunks {
		lead, _ := context(&hunks[i])
		lines = append(lines, oldLine(&hunks[i]), firstLine(&hunks[i], lead)+1)
	}
	return &text{data: data, index: textedit.NewIndex(data, findScans), starts: lineScans.LineOffsets(data, lines)}
}

// oldLine is the line of the file where the hunk's old lines start: after
// the line its header names when it has none.
func oldLine(h *Hunk) int {
	if h.OldLines == 0 {
		return h.OldStart + 1
	}
	return h.OldStart
}

// firstLine is the first line the hunk changes, before the file is
// consulted.
func firstLine(h *Hunk, lead string) int {
	if h.OldLines == 0 {
		return h.OldStart + 1
	}
	return h.OldStart + strings.Count(lead, "\n")
}

// resolve picks the file's path under the source root: the new side's
// path, or it without a one-segment prefix (b/, new/) when only that
// exists; and reads it. Without the file, the prefix is dropped when both
// sides carry git's a/ and b/ (or old/ and new/).
func (c *converter) resolve(f File) (string, []byte) {
	if f.Path == "/dev/null" {
		return "", nil
	}
	cands := []string{strings.TrimPrefix(f.Path, "./")}
	if i := strings.IndexByte(f.Path, '/'); i > 0 {
		cands = append(cands, f.Path[i+1:])
	}
	for _, p := range cands {
		if c.opts.FS != nil && fs.ValidPath(p) {
			if data, err := fs.ReadFile(c.opts.FS, p); err == nil {
				return p, data
			}
		}
	}
	for _, pre := range [][2]string{{"a/", "b/"}, {"old/", "new/"}} {
		if strings.HasPrefix(f.Old, pre[0]) && strings.HasPrefix(f.Path, pre[1]) {
			return f.Path[len(pre[1]):], nil
		}
	}
	return cands[0], nil
}

func (c *converter) lint(line int, format string, args ...any) {
	c.lints.Addf(diag.Place{File: c.name, Line: line}, format, args...)
}

func (c *converter) finding(p string, t *text, i int, h *Hunk) agc.Finding {
	lead, trail := context(h)
	old, repl := h.Old(), h.New()
	coreOld := old[len(lead) : len(old)-len(trail)]
	coreNew := repl[len(lead) : len(repl)-len(trail)]
	first := firstLine(h, lead)
	last := first + max(strings.Count(coreOld, "\n"), 1) - 1
	if coreOld != "" && !strings.HasSuffix(coreOld, "\n") {
		last = first + strings.Count(coreOld, "\n")
	}
	// The line after first does not start: first is past the file's
	// last line break (first > bytes.Count(data, "\n")).
	if coreOld == "" && t.data != nil && t.starts[2*i+1] < 0 {
		first, last = max(first-1, 1), max(first-1, 1)
	}
	lines := strconv.Itoa(first)
	if last > first {
		lines += "-" + strconv.Itoa(last)
	}
	f := agc.Finding{
		Class:    c.class,
		Location: agc.FormatLocation(p, agc.Position{Line: first, EndLine: last}),
		What:     fmt.Sprintf("%s would rewrite line %s of %s.", c.opts.Gate, lines, p),
		Why:      fmt.Sprintf("The file is not as %s writes it; the patch is %s's own change.", c.opts.Gate, c.opts.Gate),
		Severity: agc.Blocking,
		Status:   agc.StatusNew,
		Check:    agc.Check{Kind: agc.CheckPreview},
	}
	if last > first {
		f.What = fmt.Sprintf("%s would rewrite lines %s of %s.", c.opts.Gate, lines, p)
	}
	if c.opts.Advisory {
		f.Severity = agc.Advisory
	}
	f.Remedy = c.remedy(p, t, i, h, old, repl, lead, trail, coreNew)
	sum := sha256.Sum256([]byte(coreOld + "\x00" + coreNew))
	f.ID = c.opts.Gate + "/" + c.class + "/" + p + "@" + hex.EncodeToString(sum[:6])
	return f
}

// remedy is the hunk as a patch: against the file, its changed bytes
// alone (context trimmed) with a find text that occurs once; without the
// file, the hunk's old side as the find text.
func (c *converter) remedy(p string, t *text, i int, h *Hunk, old, repl, lead, trail, coreNew string) agc.Remedy {
	data := t.data
	delegate := agc.Remedy{Kind: agc.RemedyDelegate, Role: "author of the change", Authority: "the output of " + c.opts.Gate}
	if data == nil {
		if old == "" {
			c.lint(h.Line, "%s is not under the source root and the hunk only inserts: no patch remedy", p)
			return delegate
		}
		return agc.Remedy{Kind: agc.RemedyPatch, Edits: []agc.Edit{{Path: p, Find: old, Replace: repl}}}
	}
	line, off := oldLine(h), t.starts[2*i]
	if off < 0 || !bytes.HasPrefix(data[off:], []byte(old)) {
		at, ok := t.index.Find([]byte(old)) // its only occurrence
		if !ok {
			c.lint(h.Line, "the hunk's old lines are not in %s as it is: no patch remedy", p)
			return delegate
		}
		c.lint(h.Line, "the hunk's old lines are not at line %d of %s but elsewhere; patched there", line, p)
		off = at
	}
	e, ok := t.index.Unique(p, off+len(lead), off+len(old)-len(trail), coreNew)
	if !ok {
		c.lint(h.Line, "no text around the hunk occurs once in %s: no patch remedy", p)
		return delegate
	}
	if !c.edits.Take(len(e.Find) + len(e.Replace)) {
		c.lint(h.Line, "the patch remedies of this diff would hold more than %d bytes of text: no patch remedy", c.edits.Limit())
		return delegate
	}
	return agc.Remedy{Kind: agc.RemedyPatch, Edits: []agc.Edit{e}}
}

// context is the hunk's leading and trailing context text (the whole of
// it when nothing changes).
func context(h *Hunk) (lead, trail string) {
	i, j := 0, len(h.Lines)
	for i < j && h.Lines[i].Op == ' ' {
		lead += h.Lines[i].Text
		i++
	}
	if i == j {
		return lead, ""
	}
	for j > i && h.Lines[j-1].Op == ' ' {
		trail = h.Lines[j-1].Text + trail
		j--
	}
	return lead, trail
}
