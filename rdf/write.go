package rdf

import (
	"bytes"
	"encoding/json"
	"io"
	"io/fs"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/review"
	"github.com/agcgate/agc-action/textedit"
)

// WriteOptions tune Write.
type WriteOptions struct {
	// FS is the source root, to turn patch remedies into suggestions with
	// ranges; nil: no suggestions for findings not read from rdjson.
	FS fs.FS
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
	for _, r := range rs {
		for i := range r.Findings {
			f := &r.Findings[i]
			if raw := restored(f); raw != nil {
				out.Diagnostics = append(out.Diagnostics, &Diagnostic{Raw: raw})
				continue
			}
			out.Diagnostics = append(out.Diagnostics, fromFinding(r, f, opts))
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

func fromFinding(r *agc.Response, f *agc.Finding, opts WriteOptions) *Diagnostic {
	d := &Diagnostic{
		Message:  f.What,
		Severity: SeverityWarning,
		Source:   &Source{Name: r.Gate.ID},
		Code:     &Code{Value: f.Class},
	}
	if f.Severity == agc.Blocking {
		d.Severity = SeverityError
	}
	p, start, end := review.ParseLocation(f.Location)
	if p != "" && p != "." {
		d.Location = &Location{Path: p}
		if start > 0 {
			d.Location.Range = &Range{Start: Position{Line: start}}
			if end > start {
				d.Location.Range.End = &Position{Line: end}
			}
		}
	}
	if f.Remedy.Kind == agc.RemedyPatch && opts.FS != nil {
		for _, e := range f.Remedy.Edits {
			if e.Path != p {
				continue
			}
			data, err := fs.ReadFile(opts.FS, e.Path)
			if err != nil || !textedit.Once(data, []byte(e.Find)) {
				continue
			}
			s := bytes.Index(data, []byte(e.Find))
			d.Suggestions = append(d.Suggestions, Suggestion{
				Range: &Range{Start: positionAt(data, s), End: ptrTo(positionAt(data, s+len(e.Find)))},
				Text:  e.Replace,
			})
		}
	}
	return d
}

// positionAt is the line and byte column of offset off.
func positionAt(data []byte, off int) Position {
	ls := bytes.LastIndexByte(data[:off], '\n') + 1
	return Position{Line: 1 + bytes.Count(data[:ls], []byte("\n")), Column: off - ls + 1}
}

func ptrTo(p Position) *Position { return &p }
