package sarif

import (
	"slices"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
)

// The agc-action/sarif member is written once per finding, so it is
// encoded by hand rather than by reflection. The bytes are those json v2
// writes for the struct tags in sarifmember.go (omitzero members left out, nil
// slices as []), with map keys sorted; a string that is not valid UTF-8 is
// an error, as it is for json v2.

// jsonWriter appends JSON text; a writer of a format embeds it and adds
// the values it writes.
type jsonWriter struct {
	b     []byte
	comma bool // a member or element ends the text: a member name needs a comma first
}

func (w *jsonWriter) open() {
	w.b = append(w.b, '{')
	w.comma = false
}

func (w *jsonWriter) close() {
	w.b = append(w.b, '}')
	w.comma = true
}

// name starts a member; names are plain ASCII constants.
func (w *jsonWriter) name(n string) {
	if w.comma {
		w.b = append(w.b, ',')
	}
	w.b = append(w.b, '"')
	w.b = append(w.b, n...)
	w.b = append(w.b, '"', ':')
	w.comma = false
}

// array writes n items as a JSON array; item(i) writes item i.
func (w *jsonWriter) array(n int, item func(i int)) {
	w.b = append(w.b, '[')
	for i := range n {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		item(i)
	}
	w.b = append(w.b, ']')
	w.comma = true
}

// xWriter appends the members of one JSON object.
type xWriter struct {
	jsonWriter
	err error
}

func (w *xWriter) quote(s string) {
	var err error
	if w.b, err = jsontext.AppendQuote(w.b, s); err != nil && w.err == nil {
		w.err = err
	}
	w.comma = true
}

func (w *xWriter) str(n, v string, omitzero bool) {
	if v == "" && omitzero {
		return
	}
	w.name(n)
	w.quote(v)
}

func (w *xWriter) int(n string, v int, omitzero bool) {
	if v == 0 && omitzero {
		return
	}
	w.name(n)
	w.b = strconv.AppendInt(w.b, int64(v), 10)
	w.comma = true
}

func (w *xWriter) strMap(n string, m map[string]string) {
	if m == nil {
		return
	}
	w.name(n)
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	w.open()
	for _, k := range keys {
		if w.comma {
			w.b = append(w.b, ',')
		}
		w.quote(k)
		w.b = append(w.b, ':')
		w.quote(m[k])
	}
	w.close()
}

func (w *xWriter) record(x *xRecord) {
	w.open()
	w.str("ruleId", x.RuleID, true)
	w.str("message", x.Message, true)
	w.str("kind", x.Kind, true)
	w.str("level", x.Level, false)
	w.str("uri", x.URI, true)
	if x.Region != nil {
		w.name("region")
		w.region(x.Region)
	}
	w.str("logical", x.Logical, true)
	if x.Fixes != nil {
		w.name("fixes")
		w.fixes(x.Fixes)
	}
	if x.Suppressed {
		w.name("suppressed")
		w.b = append(w.b, "true"...)
		w.comma = true
	}
	w.str("baselineState", x.BaselineState, true)
	w.strMap("partialFingerprints", x.Partial)
	w.strMap("fingerprints", x.Fingerprints)
	w.close()
}

func (w *xWriter) region(r *xRegion) {
	w.open()
	w.int("startLine", r.StartLine, true)
	w.int("startColumn", r.StartColumn, true)
	w.int("endLine", r.EndLine, true)
	w.int("endColumn", r.EndColumn, true)
	if r.CharOffset != nil {
		w.int("charOffset", *r.CharOffset, false)
	}
	w.int("charLength", r.CharLength, true)
	w.str("snippet", r.Snippet, true)
	w.close()
}

func (w *xWriter) fixes(fixes []xFix) {
	w.array(len(fixes), func(i int) {
		f := fixes[i]
		w.open()
		w.str("description", f.Description, true)
		w.name("changes")
		w.array(len(f.Changes), func(j int) {
			c := f.Changes[j]
			w.open()
			w.str("uri", c.URI, false)
			w.name("replacements")
			w.array(len(c.Replacements), func(k int) {
				r := c.Replacements[k]
				w.open()
				w.name("deleted")
				w.region(&r.Deleted)
				w.str("inserted", r.Inserted, false)
				w.close()
			})
			w.close()
		})
		w.close()
	})
}

// xRecordMember is the unknown-members value {"agc-action/sarif": x} of a
// finding; nil if a string is not valid UTF-8.
func xRecordMember(x *xRecord) jsontext.Value {
	w := xWriter{jsonWriter: jsonWriter{b: make([]byte, 0, 256)}}
	w.open()
	w.name(xSARIF)
	w.record(x)
	w.close()
	if w.err != nil {
		return nil
	}
	return w.b
}

// xResponseMember is the unknown-members value of a response whose other
// results are x; nil if a string is not valid UTF-8.
func xResponseMember(x *xResponse) jsontext.Value {
	w := xWriter{}
	w.open()
	w.name(xSARIF)
	w.open()
	if x.Results != nil {
		w.name("results")
		w.array(len(x.Results), func(i int) { w.record(&x.Results[i]) })
	}
	w.close()
	w.close()
	if w.err != nil {
		return nil
	}
	return w.b
}
