package rdf

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agcgate/agc-action/diag"
)

// MaxBytes bounds an input; MaxDepth the nesting of its JSON.
const (
	MaxBytes = 256 << 20
	MaxDepth = 64
)

// ReadResult reads rdjson: one DiagnosticResult object. Lint and errors
// name file and the place, with the line and column of their pointer.
func ReadResult(file string, data []byte) (*Result, []diag.Lint, error) {
	v, err := decodeValue(file, data, 0)
	if err != nil {
		return nil, nil, err
	}
	top, ok := v.(map[string]any)
	if !ok {
		return nil, nil, placed(file, data, "", "an rdjson input is one DiagnosticResult object, not %s", kindOf(v))
	}
	rd := &reader{}
	res := &Result{Source: rd.source(top, "", "source"), Severity: rd.severity(top, "", "severity")}
	if raw, ok := field(top, "diagnostics"); ok {
		list, ok := raw.([]any)
		if !ok {
			return nil, nil, placed(file, data, "/diagnostics", "diagnostics must be an array, not %s", kindOf(raw))
		}
		for i, d := range list {
			p := "/diagnostics/" + strconv.Itoa(i)
			m, ok := d.(map[string]any)
			if !ok {
				return nil, nil, placed(file, data, p, "a diagnostic must be an object, not %s", kindOf(d))
			}
			res.Diagnostics = append(res.Diagnostics, rd.diagnostic(m, p))
		}
	} else if _, ok := top["agc"]; ok {
		return nil, nil, placed(file, data, "", "this is an AGC response, not rdjson (read it with --from agc)")
	}
	lints := rd.lints.List()
	diag.LocateLints(file, data, lints)
	return res, lints, nil
}

// ReadLines reads rdjsonl: one Diagnostic object per line; blank lines are
// skipped. A lint's or error's place is the line, and the column of its
// pointer in that line.
func ReadLines(file string, data []byte) (*Result, []diag.Lint, error) {
	return readLines(file, data, nil)
}

// readLines is ReadLines, counting in scans the bytes read to place the
// lints, for the test that this stays linear.
func readLines(file string, data []byte, scans *diag.ScanCounter) (*Result, []diag.Lint, error) {
	res := &Result{}
	var lints diag.Lints
	lineNo := 0
	for rest := data; len(rest) > 0; {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		lineNo++
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		v, err := decodeValue(file, line, lineNo)
		if err != nil {
			return nil, nil, err
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil, nil, diag.Errorf(diag.Place{File: file, Line: lineNo}, "an rdjsonl line is one Diagnostic object, not %s", kindOf(v))
		}
		rd := &reader{}
		d := rd.diagnostic(m, "")
		d.Line = lineNo
		res.Diagnostics = append(res.Diagnostics, d)
		ls := rd.lints.List()
		if !lints.Full() {
			scans.LocateLints(file, line, ls) // one walk of the line for all its lints
		}
		for _, l := range ls {
			if lints.Full() {
				lints.Add(diag.Lint{More: l.More}) // counted, not placed
				continue
			}
			l.Line = lineNo
			lints.Add(l)
		}
	}
	return res, lints.List(), nil
}

// decodeValue decodes one JSON value (numbers as json.Number), refusing
// invalid UTF-8, trailing data and nesting deeper than MaxDepth. line > 0
// places errors on that line of an rdjsonl input.
func decodeValue(file string, data []byte, line int) (any, error) {
	at := func(off int64, msg string) error {
		p := diag.At(data, off)
		p.File = file
		if line > 0 {
			p.Line = line
		}
		return &diag.Error{Place: p, Msg: msg}
	}
	if len(data) > MaxBytes {
		return nil, diag.Errorf(diag.Place{File: file}, "input is larger than %d bytes", MaxBytes)
	}
	if !utf8.Valid(data) {
		off := 0
		for off < len(data) {
			r, n := utf8.DecodeRune(data[off:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			off += n
		}
		return nil, at(int64(off), "json.syntax: invalid UTF-8")
	}
	if d := depth(data); d > MaxDepth {
		return nil, at(0, fmt.Sprintf("json.syntax: nesting deeper than %d", MaxDepth))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, at(se.Offset, "json.syntax: "+se.Error())
		}
		return nil, at(int64(len(data)), "json.syntax: "+strings.TrimPrefix(err.Error(), "json: "))
	}
	if dec.More() {
		return nil, at(dec.InputOffset(), "json.syntax: data after the JSON value")
	}
	return v, nil
}

// depth is the deepest nesting of arrays and objects in data (strings
// skipped).
func depth(data []byte) int {
	d, most, inStr := 0, 0, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case inStr && c == '\\':
			i++
		case c == '"':
			inStr = !inStr
		case inStr:
		case c == '{' || c == '[':
			d++
			most = max(most, d)
		case c == '}' || c == ']':
			d--
		}
	}
	return most
}

func placed(file string, data []byte, pointer, format string, args ...any) error {
	p := diag.Place{File: file, Pointer: pointer}
	diag.Locate(data, &p)
	return diag.Errorf(p, format, args...)
}

func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	}
	return "a number"
}

// reader collects the lint of one document.
type reader struct {
	lints diag.Lints // the first diag.MaxLints, and how many more
}

func (rd *reader) lint(pointer, format string, args ...any) {
	rd.lints.Addf(diag.Place{Pointer: pointer}, format, args...)
}

// field finds a member by its proto name or its lowerCamelCase JSON name,
// as protojson accepts both.
func field(m map[string]any, name string) (any, bool) {
	if v, ok := m[name]; ok {
		return v, true
	}
	if camel := camelCase(name); camel != name {
		v, ok := m[camel]
		return v, ok
	}
	return nil, false
}

// key is the member name field found, for pointers.
func key(m map[string]any, name string) string {
	if _, ok := m[name]; ok {
		return name
	}
	return camelCase(name)
}

func camelCase(s string) string {
	parts := strings.Split(s, "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}

func ptr(base, name string) string {
	name = strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")
	return base + "/" + name
}

// str reads a string member; another scalar is lint and read as its text.
func (rd *reader) str(m map[string]any, base, name string) string {
	v, ok := field(m, name)
	if !ok || v == nil {
		return ""
	}
	switch s := v.(type) {
	case string:
		return s
	case json.Number:
		rd.lint(ptr(base, key(m, name)), "%s should be a string; read as %q", name, s.String())
		return s.String()
	case bool:
		rd.lint(ptr(base, key(m, name)), "%s should be a string; read as %q", name, strconv.FormatBool(s))
		return strconv.FormatBool(s)
	}
	rd.lint(ptr(base, key(m, name)), "%s should be a string, not %s; ignored", name, kindOf(v))
	return ""
}

func (rd *reader) obj(m map[string]any, base, name string) (map[string]any, string) {
	v, ok := field(m, name)
	if !ok || v == nil {
		return nil, ""
	}
	p := ptr(base, key(m, name))
	o, ok := v.(map[string]any)
	if !ok {
		rd.lint(p, "%s should be an object, not %s; ignored", name, kindOf(v))
		return nil, ""
	}
	return o, p
}

func (rd *reader) arr(m map[string]any, base, name string) ([]any, string) {
	v, ok := field(m, name)
	if !ok || v == nil {
		return nil, ""
	}
	p := ptr(base, key(m, name))
	a, ok := v.([]any)
	if !ok {
		rd.lint(p, "%s should be an array, not %s; ignored", name, kindOf(v))
		return nil, ""
	}
	return a, p
}

// objs is the objects of an array member, each with its pointer; an
// element that is not an object is lint (what names it) and left out.
func (rd *reader) objs(m map[string]any, base, name, what string) iter.Seq2[string, map[string]any] {
	list, p := rd.arr(m, base, name)
	return func(yield func(string, map[string]any) bool) {
		for i, v := range list {
			vp := p + "/" + strconv.Itoa(i)
			o, ok := v.(map[string]any)
			if !ok {
				rd.lint(vp, "%s should be an object, not %s; ignored", what, kindOf(v))
				continue
			}
			if !yield(vp, o) {
				return
			}
		}
	}
}

// integer reads a non-negative int32 member (protojson also takes one as
// a string); anything else is lint and read as 0 ("not given").
func (rd *reader) integer(m map[string]any, base, name string) int {
	v, ok := field(m, name)
	if !ok || v == nil {
		return 0
	}
	p := ptr(base, key(m, name))
	var s string
	switch n := v.(type) {
	case json.Number:
		s = n.String()
	case string:
		s = n
	default:
		rd.lint(p, "%s should be an integer, not %s; ignored", name, kindOf(v))
		return 0
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || f < 0 || f > math.MaxInt32 {
		rd.lint(p, "%s should be an integer from 0 to %d, not %s; ignored", name, math.MaxInt32, s)
		return 0
	}
	return int(f)
}

// severityAliases are the names other tools give the severities.
var severityAliases = map[string]Severity{"unknown": SeverityUnknown, "warn": SeverityWarning, "information": SeverityInfo, "note": SeverityInfo}

// severity reads a severity as its name (any case) or its number.
func (rd *reader) severity(m map[string]any, base, name string) Severity {
	v, ok := field(m, name)
	if !ok || v == nil {
		return SeverityUnknown
	}
	p := ptr(base, key(m, name))
	switch s := v.(type) {
	case string:
		for i, n := range severityNames {
			if strings.EqualFold(s, n) {
				if s != n {
					rd.lint(p, "severity %q is spelled %q in the definition; read as %s", s, n, n)
				}
				return Severity(i)
			}
		}
		if sev, ok := severityAliases[strings.ToLower(s)]; ok {
			rd.lint(p, "severity %q is not a name of the definition; read as %s", s, sev)
			return sev
		}
	case json.Number:
		if i, err := strconv.Atoi(s.String()); err == nil && i >= 0 && i < len(severityNames) {
			return Severity(i)
		}
	}
	rd.lint(p, "severity %v is not one of UNKNOWN_SEVERITY (0), ERROR (1), WARNING (2), INFO (3); read as UNKNOWN_SEVERITY", v)
	return SeverityUnknown
}

func (rd *reader) source(m map[string]any, base, name string) *Source {
	o, p := rd.obj(m, base, name)
	if o == nil {
		return nil
	}
	s := &Source{Name: rd.str(o, p, "name"), URL: rd.str(o, p, "url")}
	if s.Name == "" && s.URL == "" {
		return nil
	}
	return s
}

func (rd *reader) diagnostic(m map[string]any, base string) *Diagnostic {
	d := &Diagnostic{Pointer: base}
	d.Raw, _ = json.Marshal(m)
	d.Message = rd.str(m, base, "message")
	if d.Message == "" {
		rd.lint(ptr(base, "message"), "a diagnostic without a message")
	}
	if o, p := rd.obj(m, base, "location"); o != nil {
		d.Location = rd.location(o, p)
	}
	d.Severity = rd.severity(m, base, "severity")
	d.Source = rd.source(m, base, "source")
	if o, p := rd.obj(m, base, "code"); o != nil {
		d.Code = &Code{Value: rd.str(o, p, "value"), URL: rd.str(o, p, "url")}
		if d.Code.Value == "" && d.Code.URL == "" {
			d.Code = nil
		}
	}
	for sp, o := range rd.objs(m, base, "suggestions", "a suggestion") {
		sg := Suggestion{Text: rd.str(o, sp, "text")}
		if r, rp := rd.obj(o, sp, "range"); r != nil {
			sg.Range = rd.rng(r, rp)
		}
		if sg.Range == nil {
			rd.lint(sp, "a suggestion without a range; ignored")
			continue
		}
		d.Suggestions = append(d.Suggestions, sg)
	}
	d.OriginalOutput = rd.str(m, base, "original_output")
	for sp, o := range rd.objs(m, base, "related_locations", "a related location") {
		rl := RelatedLocation{Message: rd.str(o, sp, "message")}
		if l, lp := rd.obj(o, sp, "location"); l != nil {
			rl.Location = rd.location(l, lp)
		}
		d.RelatedLocations = append(d.RelatedLocations, rl)
	}
	return d
}

func (rd *reader) location(m map[string]any, base string) *Location {
	l := &Location{Path: rd.str(m, base, "path")}
	if r, p := rd.obj(m, base, "range"); r != nil {
		l.Range = rd.rng(r, p)
	}
	return l
}

func (rd *reader) rng(m map[string]any, base string) *Range {
	s, sp := rd.obj(m, base, "start")
	if s == nil {
		rd.lint(base, "a range without a start; ignored")
		return nil
	}
	r := &Range{Start: rd.position(s, sp)}
	if r.Start.Line == 0 {
		rd.lint(sp, "a range start without a line; ignored")
		return nil
	}
	if e, ep := rd.obj(m, base, "end"); e != nil {
		end := rd.position(e, ep)
		switch {
		case end.Line == 0 && end.Column == 0:
			// an empty end is no end
		case end.Line == 0:
			end.Line = r.Start.Line
			rd.lint(ep, "a range end without a line; read as the start's line %d", end.Line)
			fallthrough
		default:
			if end.Line < r.Start.Line || end.Line == r.Start.Line && end.Column > 0 && end.Column < r.Start.Column {
				rd.lint(ep, "the range ends before it starts; read as ending at its start")
				break
			}
			r.End = &end
		}
	}
	return r
}

func (rd *reader) position(m map[string]any, base string) Position {
	return Position{Line: rd.integer(m, base, "line"), Column: rd.integer(m, base, "column")}
}
