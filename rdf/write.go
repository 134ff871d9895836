package rdf

import (
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"math"
	"sort"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/agcgate/agc-action/textedit"
)

// WriteOptions tune Write.
type WriteOptions struct {
	// FS is the source root, to turn patch remedies into suggestions with
	// ranges; nil: no suggestions for findings not read from rdjson.
	FS fs.FS

	// findScans, if not nil, counts the bytes of source files read to
	// find the findings' edits (textedit.Index), for the test that this
	// stays linear.
	findScans *diag.ScanCounter
}

// FromAGC makes one DiagnosticResult of the responses: a finding read from
// rdjson is its diagnostic again (with its result's source filled in);
// any other finding becomes a diagnostic of its own (docs/rdf-mapping.md).
// With one response, the result's source is its gate.
func FromAGC(rs []*agc.Response, opts WriteOptions) *Result {
	out := &Result{Diagnostics: []*Diagnostic{}}
	if len(rs) == 1 {
		out.Source = &Source{Name: rs[0].Gate.ID}
	}
	srcs := &sources{fsys: opts.FS, files: map[string]*source{}, scans: opts.findScans}
	for _, r := range rs {
		for i := range r.Findings {
			f := &r.Findings[i]
			if raw := restored(f); raw != nil {
				out.Diagnostics = append(out.Diagnostics, &Diagnostic{Raw: raw})
				continue
			}
			out.Diagnostics = append(out.Diagnostics, fromFinding(r, f, srcs))
		}
	}
	return out
}

// Write writes rs as rdjson.
func Write(w io.Writer, rs []*agc.Response, opts WriteOptions) error {
	res := FromAGC(rs, opts)
	items := make([]json.RawMessage, len(res.Diagnostics))
	for i, d := range res.Diagnostics {
		if d.Raw != nil {
			items[i] = d.Raw
			continue
		}
		b, err := json.Marshal(d)
		if err != nil {
			return err
		}
		items[i] = b
	}
	doc := struct {
		Source      *Source           `json:"source,omitempty"`
		Diagnostics []json.RawMessage `json:"diagnostics"`
	}{res.Source, items}
	b, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, b, "", "  "); err != nil {
		return err
	}
	buf.WriteByte('\n')
	_, err = w.Write(buf.Bytes())
	return err
}

// restored is the diagnostic kept in a finding's Member, or nil.
func restored(f *agc.Finding) json.RawMessage {
	if len(f.Unknown) == 0 {
		return nil
	}
	var m map[string]struct {
		Diagnostic json.RawMessage `json:"diagnostic"`
	}
	if json.Unmarshal(f.Unknown, &m) != nil {
		return nil
	}
	d := m[Member].Diagnostic
	if len(d) == 0 || d[0] != '{' {
		return nil
	}
	return d
}

// sources reads each file of the source root once for the suggestions of
// all findings: each edit read its file again, looked for its find text
// in the whole file and counted the lines before it, O(findings × file).
type sources struct {
	fsys  fs.FS
	files map[string]*source // nil: not readable
	scans *diag.ScanCounter  // WriteOptions.findScans
}

// source is a file's bytes, where its lines start (found when a find is
// first placed) and one index of its find texts.
type source struct {
	data  []byte
	lines lineIndex
	finds *textedit.Index
}

func (ss *sources) file(p string) *source {
	if s, ok := ss.files[p]; ok {
		return s
	}
	var s *source
	if data, err := fs.ReadFile(ss.fsys, p); err == nil {
		s = &source{data: data, finds: textedit.NewIndex(data, ss.scans)}
	}
	ss.files[p] = s
	return s
}

// position is positionAt(s.data, off).
func (s *source) position(off int) Position {
	if len(s.data) > math.MaxInt32 {
		return positionAt(s.data, off)
	}
	if s.lines == nil {
		s.lines = newLineIndex(s.data)
	}
	line := sort.Search(len(s.lines), func(i int) bool { return int(s.lines[i]) > off })
	return Position{Line: line, Column: off - int(s.lines[line-1]) + 1}
}

func fromFinding(r *agc.Response, f *agc.Finding, srcs *sources) *Diagnostic {
	d := &Diagnostic{
		Message:  f.What,
		Severity: SeverityWarning,
		Source:   &Source{Name: r.Gate.ID},
		Code:     &Code{Value: f.Class},
	}
	if f.Severity == agc.Blocking {
		d.Severity = SeverityError
	}
	p, pos := agc.LocationFile(f.Location)
	if p != "" && p != "." {
		d.Location = &Location{Path: p, Range: srcs.rangeOf(p, pos)}
	}
	if f.Remedy.Kind == agc.RemedyPatch && srcs.fsys != nil {
		for _, e := range f.Remedy.Edits {
			if e.Path != p {
				continue
			}
			src := srcs.file(e.Path)
			if src == nil {
				continue
			}
			s, ok := src.finds.Find([]byte(e.Find)) // its only occurrence
			if !ok {
				continue
			}
			d.Suggestions = append(d.Suggestions, Suggestion{
				Range: &Range{Start: src.position(s), End: ptrTo(src.position(s + len(e.Find)))},
				Text:  e.Replace,
			})
		}
	}
	return d
}

// rangeOf is a finding's position as a range: its columns in bytes when
// the source has their lines (agc.Position counts UTF-16 code units; the
// same on a line of ASCII). An end line without a column (to the end of
// that line) is column 1 of the line after it. Nil without a line.
func (ss *sources) rangeOf(p string, pos agc.Position) *Range {
	if pos.Line == 0 {
		return nil
	}
	var src *source
	if ss.fsys != nil && (pos.Column > 0 || pos.EndColumn > 0) {
		src = ss.file(p)
	}
	col := func(line, c int) int {
		if src == nil || c == 0 {
			return c
		}
		if line := src.line(line); line != nil {
			return agc.ByteColumn(line, c)
		}
		return c
	}
	rg := &Range{Start: Position{Line: pos.Line, Column: col(pos.Line, pos.Column)}}
	switch {
	case pos.EndColumn > 0:
		rg.End = &Position{Line: pos.EndLine, Column: col(pos.EndLine, pos.EndColumn)}
	case pos.EndLine > 0 && pos.Column > 0:
		rg.End = &Position{Line: pos.EndLine + 1, Column: 1}
	case pos.EndLine > 0:
		rg.End = &Position{Line: pos.EndLine}
	}
	return rg
}

// line is line n of the file without its line break, nil past its end.
func (s *source) line(n int) []byte {
	if s.lines == nil {
		s.lines = newLineIndex(s.data)
	}
	st, ok := s.lines.start(n)
	if !ok || n < 1 || st > len(s.data) {
		return nil
	}
	return s.data[st:s.lines.end(s.data, n)]
}

// positionAt is the line and byte column of offset off.
func positionAt(data []byte, off int) Position {
	ls := bytes.LastIndexByte(data[:off], '\n') + 1
	return Position{Line: 1 + bytes.Count(data[:ls], []byte("\n")), Column: off - ls + 1}
}

func ptrTo(p Position) *Position { return &p }
