package sarif

import (
	"slices"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
)

// jsonWriter appends JSON text: the SARIF log Write writes (encoder) and
// the agc-action/sarif member of findings and responses, which is written
// once per finding and so by hand rather than by reflection. The member's
// bytes are those json v2 writes for the struct tags in sarifmember.go
// (omitzero members left out, nil slices as []), with map keys sorted.
// Strings are quoted by jsontext; one that is not valid UTF-8 is written
// with U+FFFD and noted in err (the member is then refused, as json v2
// refuses it).
type jsonWriter struct {
	b     []byte
	comma bool // a member or element ends the text: a member name needs a comma first
	err   error
	keys  []string // stringBag's
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

func (w *jsonWriter) quote(s string) {
	var err error
	if w.b, err = jsontext.AppendQuote(w.b, s); err != nil && w.err == nil {
		w.err = err
	}
	w.comma = true
}

// member writes member n, whose value v is JSON text.
func (w *jsonWriter) member(n string, v []byte) {
	w.name(n)
	w.b = append(w.b, v...)
	w.comma = true
}

func (w *jsonWriter) str(n, v string, omitzero bool) {
	if v == "" && omitzero {
		return
	}
	w.name(n)
	w.quote(v)
}

func (w *jsonWriter) int(n string, v int, omitzero bool) {
	if v == 0 && omitzero {
		return
	}
	w.name(n)
	w.b = strconv.AppendInt(w.b, int64(v), 10)
	w.comma = true
}

// stringBag writes member n, an object of strings: base's entries, and
// over's, which win; keys sorted, as json.Deterministic writes a map.
func (w *jsonWriter) stringBag(n string, base []bagEntry, over map[string]string) {
	keys := w.keys[:0]
	for _, b := range base {
		if _, ok := over[b.k]; !ok {
			keys = append(keys, b.k)
		}
	}
	for k := range over {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	w.name(n)
	w.open()
	for _, k := range keys {
		v, ok := over[k]
		for _, b := range base {
			if !ok && b.k == k {
				v = b.v
			}
		}
		if w.comma {
			w.b = append(w.b, ',')
		}
		w.quote(k)
		w.b = append(w.b, ':')
		w.quote(v)
	}
	w.close()
	w.keys = keys[:0]
}

type bagEntry struct{ k, v string }

func (w *jsonWriter) xRecord(x *xRecord) {
	w.open()
	w.str("ruleId", x.RuleID, true)
	w.str("message", x.Message, true)
	w.str("kind", x.Kind, true)
	w.str("level", x.Level, false)
	w.str("uri", x.URI, true)
	if x.Region != nil {
		w.name("region")
		w.xRegion(x.Region)
	}
	w.str("logical", x.Logical, true)
	if x.Fixes != nil {
		w.name("fixes")
		w.xFixes(x.Fixes)
	}
	if x.Suppressed {
		w.name("suppressed")
		w.b = append(w.b, "true"...)
		w.comma = true
	}
	w.str("baselineState", x.BaselineState, true)
	if x.Partial != nil {
		w.stringBag("partialFingerprints", nil, x.Partial)
	}
	if x.Fingerprints != nil {
		w.stringBag("fingerprints", nil, x.Fingerprints)
	}
	w.close()
}

func (w *jsonWriter) xRegion(r *xRegion) {
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

func (w *jsonWriter) xFixes(fixes []xFix) {
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
				w.xRegion(&r.Deleted)
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
	w := jsonWriter{b: make([]byte, 0, 256)}
	w.open()
	w.name(xSARIF)
	w.xRecord(x)
	w.close()
	if w.err != nil {
		return nil
	}
	return w.b
}

// xResponseMember is the unknown-members value of a response whose other
// results are x; nil if a string is not valid UTF-8.
func xResponseMember(x *xResponse) jsontext.Value {
	w := jsonWriter{}
	w.open()
	w.name(xSARIF)
	w.open()
	if x.Results != nil {
		w.name("results")
		w.array(len(x.Results), func(i int) { w.xRecord(&x.Results[i]) })
	}
	w.close()
	w.close()
	if w.err != nil {
		return nil
	}
	return w.b
}
