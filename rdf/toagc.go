package rdf

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io/fs"
	"math"
	"path"
	"sort"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/agcgate/agc-action/textedit"
)

// Member is the finding member that keeps the diagnostic a finding was
// made from, so that writing rdjson again restores it.
const Member = "agc-action/rdf"

// ToAGCOptions tune ToAGC.
type ToAGCOptions struct {
	// FS is the source root; suggestions become patch remedies only for
	// files read through it. Root is its absolute slash path: absolute
	// paths under it are made relative.
	FS   fs.FS
	Root string
	// FailLevel is the lowest level that blocks: error (default: ERROR),
	// warning (WARNING), note (INFO), none (nothing).
	FailLevel string
	// Gate is the gate id of every diagnostic; "" groups them by source
	// name, each source a gate, and Default names the gate of those
	// without one.
	Gate, Default string
	// Fingerprint is the subject's fingerprint; "" hashes Input.
	Fingerprint string
	Input       []byte

	// lineScans and findScans, if not nil, count the bytes of source
	// files read to find where lines start and end and to make
	// suggestions' find texts unique (textedit.Index), for the tests that
	// these stay linear.
	lineScans, findScans *diag.ScanCounter
	// maxEditText, if not 0, lowers the bound of the patch remedies' text
	// (textedit.MaxEditText), for the test of the bound.
	maxEditText int
}

var levelRank = map[string]int{"none": 99, "note": 1, "warning": 2, "error": 3, "": 3}

func sevRank(s Severity) int {
	switch s {
	case SeverityError:
		return 3
	case SeverityInfo:
		return 1
	}
	return 2 // WARNING, and UNKNOWN_SEVERITY as SARIF's default level
}

// ToAGC converts a result into one response per gate (docs/rdf-mapping.md).
// The lint name the diagnostics whose suggestions could not become a
// patch remedy; their pointers are the diagnostics'.
func ToAGC(res *Result, opts ToAGCOptions) ([]*agc.Response, []diag.Lint) {
	c := &converter{opts: opts, files: map[string][]byte{}, edits: textedit.Budget{Max: opts.maxEditText}}
	fp := opts.Fingerprint
	if fp == "" {
		sum := sha256.Sum256(opts.Input)
		fp = "sha256:" + hex.EncodeToString(sum[:])
	}
	// gateOf is the gate of the diagnostics from src: opts.Gate, or the
	// source's name, or opts.Default.
	gateOf := func(src *Source) string {
		switch {
		case opts.Gate != "":
			return opts.Gate
		case src != nil && src.Name != "":
			return agc.ToolGateID(src.Name)
		}
		return cmp.Or(opts.Default, "rdjson")
	}
	var order []string
	groups := map[string][]*Diagnostic{}
	sources := map[string]*Source{}
	for _, d := range res.Diagnostics {
		src := d.Source
		if src == nil {
			src = res.Source
		}
		g := gateOf(src)
		if _, ok := groups[g]; !ok {
			order = append(order, g)
			sources[g] = src
		}
		groups[g] = append(groups[g], d)
	}
	if len(order) == 0 {
		g := gateOf(res.Source)
		order, sources[g] = []string{g}, res.Source
	}
	var out []*agc.Response
	for _, g := range order {
		out = append(out, c.response(g, sources[g], res, groups[g], fp))
	}
	return out, c.lints.List()
}

type converter struct {
	opts   ToAGCOptions
	files  map[string][]byte // nil: not readable
	lines  map[string]lineIndex
	hashes map[lineKey][]byte // lineHash's states
	lints  diag.Lints         // the first diag.MaxLints, and how many more
	// finds answers the suggestions' find texts of each file: one index
	// for all its diagnostics, each of which read the whole file
	// (an Index each), O(diagnostics × file).
	finds map[string]*textedit.Index
	// edits is what is left for the text of the patch remedies.
	edits textedit.Budget
}

// lineIndex is where each line of a file starts, found once: a
// diagnostic's range is found from it without counting the file's lines
// from its start, which for many diagnostics far down a large file cost
// O(diagnostics × file).
type lineIndex []int32

func newLineIndex(data []byte) lineIndex {
	idx := lineIndex{0}
	for i, b := range data {
		if b == '\n' {
			idx = append(idx, int32(i+1))
		}
	}
	return idx
}

// start is diag.LineOffset of line n.
func (idx lineIndex) start(n int) (int, bool) {
	if n < 1 {
		return 0, true
	}
	if n > len(idx) {
		return 0, false
	}
	return int(idx[n-1]), true
}

// end is where line n ends, before its line break: lineEndNoEOL of its
// start (start found it), from the index instead of reading the line.
func (idx lineIndex) end(data []byte, n int) int {
	n = max(n, 1)
	if n >= len(idx) {
		return len(data) // the last line: no line break after it
	}
	e := int(idx[n]) - 1 // its LF
	if e > int(idx[n-1]) && data[e-1] == '\r' {
		e--
	}
	return e
}

// offsets is Offsets in file p, its bytes data.
func (c *converter) offsets(p string, data []byte, rg *Range) (start, end int, ok bool) {
	if len(data) > math.MaxInt32 {
		return offsets(data, rg, c.opts.lineScans)
	}
	idx, ok := c.lines[p]
	if !ok {
		c.opts.lineScans.Add(len(data))
		idx = newLineIndex(data)
		if c.lines == nil {
			c.lines = map[string]lineIndex{}
		}
		c.lines[p] = idx
	}
	return offsetsIn(idx.start, func(n int) int { return idx.end(data, n) }, data, rg)
}

func (c *converter) response(gate string, src *Source, res *Result, ds []*Diagnostic, fp string) *agc.Response {
	r := agc.NewResponse(gate, fp)
	ids := agc.FindingIDs{}
	seen := map[string]bool{}
	r.Coverage = agc.Coverage{Complete: true, Classes: []string{}}
	for _, d := range ds {
		f := c.finding(gate, src, res, d)
		f.ID = ids.Unique(f.ID)
		if !seen[f.Class] {
			seen[f.Class] = true
			r.Coverage.Classes = append(r.Coverage.Classes, f.Class)
		}
		if f.Severity == agc.Blocking {
			r.Verdict = agc.Block
		}
		r.Findings = append(r.Findings, f)
	}
	return r
}

func (c *converter) finding(gate string, src *Source, res *Result, d *Diagnostic) agc.Finding {
	sev := d.Severity
	if sev == SeverityUnknown {
		sev = res.Severity
	}
	class := "unidentified-rule"
	if d.Code != nil && d.Code.Value != "" {
		class = d.Code.Value
	}
	p := ""
	var rg *Range
	if d.Location != nil {
		p, rg = c.relPath(d.Location.Path), d.Location.Range
	}
	loc := "."
	if p != "" {
		loc = agc.FormatLocation(p, c.position(p, rg))
	}
	f := agc.Finding{
		Class:    class,
		Location: loc,
		What:     cmp.Or(d.Message, "reported by "+sourceName(src, gate)),
		Why:      c.why(class, d, src, gate),
		Severity: agc.Advisory,
		Status:   agc.StatusNew,
		Check:    agc.Check{Kind: agc.CheckPreview},
	}
	if sevRank(sev) >= levelRank[c.opts.FailLevel] {
		f.Severity = agc.Blocking
	}
	f.Remedy = c.remedy(p, d, class, src, gate)
	f.ID = gate + "/" + class + "/" + p + "@" + c.identity(p, rg, d)
	f.Unknown = member(d, src)
	return f
}

// relPath makes an absolute path under the source root relative, and
// cleans "./".
func (c *converter) relPath(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	if root := strings.TrimSuffix(c.opts.Root, "/"); root != "" && strings.HasPrefix(p, root+"/") {
		p = p[len(root)+1:]
	}
	if p == "" {
		return ""
	}
	if !strings.HasPrefix(p, "/") {
		p = path.Clean(p)
	}
	return p
}

// position is a range as a finding's position: its start and end lines,
// and its columns in UTF-16 code units (agc.Position) when the source has
// their lines, else as the diagnostic counted them (UTF-8 bytes: the same
// on a line of ASCII).
func (c *converter) position(p string, rg *Range) agc.Position {
	pos := position(rg)
	if pos.Column == 0 && pos.EndColumn == 0 {
		return pos
	}
	data, ok := c.file(p)
	if !ok {
		return pos
	}
	conv := func(line int, col *int) {
		if s, e, ok := c.offsets(p, data, &Range{Start: Position{Line: line}}); ok && *col > 0 {
			*col = agc.UTF16Column(data[s:e], *col)
		}
	}
	conv(pos.Line, &pos.Column)
	conv(max(pos.EndLine, pos.Line), &pos.EndColumn)
	return pos
}

// position is a range's lines and columns as a finding's position. An end
// with a line and no column after a start with one is column 1 of that
// line (Offsets).
func position(rg *Range) agc.Position {
	if rg == nil {
		return agc.Position{}
	}
	p := agc.Position{Line: rg.Start.Line, Column: rg.Start.Column}
	if rg.End != nil {
		p.EndLine, p.EndColumn = rg.End.Line, rg.End.Column
		if p.EndColumn == 0 && p.Column > 0 {
			p.EndColumn = 1
		}
	}
	return p
}

func sourceName(src *Source, gate string) string {
	if src != nil && src.Name != "" {
		return src.Name
	}
	return gate
}

func (c *converter) why(class string, d *Diagnostic, src *Source, gate string) string {
	var b strings.Builder
	if d.Code != nil && d.Code.Value != "" {
		fmt.Fprintf(&b, "Rule %s of %s", class, sourceName(src, gate))
		if d.Code.URL != "" {
			fmt.Fprintf(&b, " (%s)", d.Code.URL)
		}
		b.WriteString(".")
	} else {
		fmt.Fprintf(&b, "Reported by %s.", sourceName(src, gate))
	}
	for _, rl := range d.RelatedLocations {
		b.WriteString(" Related: ")
		if rl.Location != nil {
			b.WriteString(agc.FormatLocation(rl.Location.Path, c.position(rl.Location.Path, rl.Location.Range)))
		}
		if rl.Message != "" {
			b.WriteString(" (" + rl.Message + ")")
		}
		b.WriteString(".")
	}
	return b.String()
}

func (c *converter) remedy(p string, d *Diagnostic, class string, src *Source, gate string) agc.Remedy {
	if len(d.Suggestions) > 0 && p != "" {
		if e, ok := c.edit(p, d); ok {
			return agc.Remedy{Kind: agc.RemedyPatch, Edits: []agc.Edit{e}}
		}
	}
	authority := "rule " + class + " of " + sourceName(src, gate)
	if d.Code != nil && d.Code.URL != "" {
		authority += " (" + d.Code.URL + ")"
	}
	return agc.Remedy{Kind: agc.RemedyDelegate, Role: "author of the change", Authority: authority}
}

// edit makes the diagnostic's suggestions one edit: they apply together,
// so the bytes between them are kept and the whole span is replaced once.
func (c *converter) edit(p string, d *Diagnostic) (agc.Edit, bool) {
	data, ok := c.file(p)
	if !ok {
		c.lint(d, "%s is not a file under the source root; its suggestions are not a patch remedy", p)
		return agc.Edit{}, false
	}
	type span struct {
		s, e int
		text string
	}
	spans := make([]span, 0, len(d.Suggestions))
	for i, sg := range d.Suggestions {
		s, e, ok := c.offsets(p, data, sg.Range)
		if !ok {
			c.lint(d, "suggestion %d's range is not inside %s; the suggestions are not a patch remedy", i, p)
			return agc.Edit{}, false
		}
		spans = append(spans, span{s, e, sg.Text})
	}
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].s < spans[j].s })
	size := spans[len(spans)-1].e - spans[0].s // the find's least, and about the replace's
	for _, sp := range spans {
		size += len(sp.text)
	}
	if !c.edits.Take(size) {
		c.lint(d, "the patch remedies of this log would hold more than %d bytes of text; these suggestions are not a patch remedy", c.edits.Limit())
		return agc.Edit{}, false
	}
	var text strings.Builder
	for i, sp := range spans {
		if i > 0 {
			prev := spans[i-1]
			if sp.s < prev.e {
				c.lint(d, "suggestions %d and %d overlap; the suggestions are not a patch remedy", i-1, i)
				return agc.Edit{}, false
			}
			text.Write(data[prev.e:sp.s])
		}
		text.WriteString(sp.text)
	}
	x, ok := c.finds[p]
	if !ok {
		x = textedit.NewIndex(data, c.opts.findScans)
		if c.finds == nil {
			c.finds = map[string]*textedit.Index{}
		}
		c.finds[p] = x
	}
	e, ok := x.Unique(p, spans[0].s, spans[len(spans)-1].e, text.String())
	if !ok {
		c.lint(d, "no text around the suggestions occurs once in %s; the suggestions are not a patch remedy", p)
		return e, false
	}
	if !c.edits.Take(len(e.Find) + len(e.Replace) - size) { // the context widening added
		c.lint(d, "the patch remedies of this log would hold more than %d bytes of text; these suggestions are not a patch remedy", c.edits.Limit())
		return agc.Edit{}, false
	}
	return e, true
}

func (c *converter) lint(d *Diagnostic, format string, args ...any) {
	c.lints.Addf(diag.Place{Pointer: d.Pointer, Line: d.Line}, format, args...)
}

func (c *converter) file(p string) ([]byte, bool) {
	if data, ok := c.files[p]; ok {
		return data, data != nil
	}
	var data []byte
	if c.opts.FS != nil && fs.ValidPath(p) {
		if b, err := fs.ReadFile(c.opts.FS, p); err == nil {
			data = b
		}
	}
	c.files[p] = data
	return data, data != nil
}

// identity is a short hash of the diagnostic without its line number: the
// text of its first line when the source has it, and its message.
func (c *converter) identity(p string, rg *Range, d *Diagnostic) string {
	h := c.lineHash(p, rg)
	h.Write([]byte(d.Message))
	return hex.EncodeToString(h.Sum(nil)[:6])
}

// lineHash is a SHA-256 that has read the text of the first line of rg
// in p (trimmed; "" when the source does not have it) and a NUL. The
// state is kept for each line, so that many diagnostics on one long line
// (a minified file) hash it once, not once each.
func (c *converter) lineHash(p string, rg *Range) hash.Hash {
	k := lineKey{p, -1}
	if rg != nil {
		k.line = rg.Start.Line
	}
	h := sha256.New()
	if state, ok := c.hashes[k]; ok {
		if h.(encoding.BinaryUnmarshaler).UnmarshalBinary(state) == nil {
			return h
		}
	}
	if data, ok := c.file(p); ok && rg != nil {
		if s, e, ok := c.offsets(p, data, &Range{Start: Position{Line: rg.Start.Line}}); ok {
			h.Write(bytes.TrimSpace(data[s:e])) // the whole line, without its break
		}
	}
	h.Write([]byte{0})
	if state, err := h.(encoding.BinaryMarshaler).MarshalBinary(); err == nil {
		if c.hashes == nil {
			c.hashes = map[lineKey][]byte{}
		}
		c.hashes[k] = state
	}
	return h
}

// lineKey is a line of a file; line -1 when a diagnostic has no range.
type lineKey struct {
	path string
	line int
}

// member is {"agc-action/rdf": {"diagnostic": D}}, D the diagnostic as
// read, with the result's source filled in when it has none of its own.
func member(d *Diagnostic, src *Source) agc.Unknown {
	var m map[string]any
	if json.Unmarshal(d.Raw, &m) != nil || m == nil {
		m = map[string]any{}
	}
	if _, ok := field(m, "source"); !ok && src != nil {
		m["source"] = src
	}
	b, err := json.Marshal(map[string]any{Member: map[string]any{"diagnostic": m}})
	if err != nil {
		return nil
	}
	return agc.Unknown(b)
}

// offsets is the byte range of data that rg names, as the definition
// says: columns count bytes from 1; the end is exclusive; no end is a
// zero-length range at the start, unless the start has no column, which
// is its whole line; when neither position has a column the range is the
// whole lines, the end's included but not its line break; an end with a
// line and no column is column 1 of that line. A column may stand one past
// a line's last character (before its line break), and line count+1,
// column 1 is the end of the file. ok is false for a range outside data.
// It counts in scans the bytes read to find where lines start and end.
func offsets(data []byte, rg *Range, scans *diag.ScanCounter) (start, end int, ok bool) {
	lineStart := func(n int) (int, bool) { return scans.LineOffset(data, n) }
	lineEnd := func(n int) int {
		s, _ := lineStart(n)
		return lineEndNoEOL(data, s, scans)
	}
	return offsetsIn(lineStart, lineEnd, data, rg)
}

// offsetsIn is Offsets, finding where a line starts with lineStart and
// where one that exists ends, before its line break, with lineEnd.
func offsetsIn(lineStart func(n int) (int, bool), lineEnd func(n int) int, data []byte, rg *Range) (start, end int, ok bool) {
	offset := func(line, col int) (int, bool) { return offset(lineStart, lineEnd, data, line, col) }
	if rg == nil || rg.Start.Line < 1 {
		return 0, 0, false
	}
	start, ok = offset(rg.Start.Line, max(rg.Start.Column, 1))
	if !ok {
		return 0, 0, false
	}
	switch {
	case rg.End == nil && rg.Start.Column == 0:
		return start, lineEnd(rg.Start.Line), true
	case rg.End == nil:
		return start, start, true
	case rg.Start.Column == 0 && rg.End.Column == 0:
		if _, ok := offset(rg.End.Line, 1); !ok {
			return 0, 0, false
		}
		return start, lineEnd(rg.End.Line), true
	}
	end, ok = offset(rg.End.Line, max(rg.End.Column, 1))
	if !ok || end < start {
		return 0, 0, false
	}
	return start, end, true
}

// offset is the byte offset of line, column (1-based) in data.
func offset(lineStart func(n int) (int, bool), lineEnd func(n int) int, data []byte, line, col int) (int, bool) {
	ls, ok := lineStart(line)
	if !ok {
		return 0, false
	}
	if ls == len(data) {
		return ls, col == 1
	}
	off := ls + col - 1
	if off > lineEnd(line) {
		return 0, false
	}
	return off, true
}

// lineEndNoEOL is the offset of the line break (LF, or the CR of CRLF)
// ending the line holding offset i, or len(data); scans counts the bytes
// it reads.
func lineEndNoEOL(data []byte, i int, scans *diag.ScanCounter) int {
	j := bytes.IndexByte(data[i:], '\n')
	if j < 0 {
		scans.Add(len(data) - i)
		return len(data)
	}
	scans.Add(j + 1)
	j += i
	if j > i && data[j-1] == '\r' {
		j--
	}
	return j
}
