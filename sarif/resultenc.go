package sarif

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	gosarif "github.com/owenrumney/go-sarif/v2/sarif"
)

// A log of 25,000 results is mostly its results, and encoding/json spends
// most of its time on them in reflection and in sorting and compacting
// property bags. resultEncoder writes a go-sarif result by hand, with the
// bytes encoding/json writes for it (SetEscapeHTML(false)): members in
// struct order, omitempty members left out, map keys sorted, strings
// escaped as encoding/json escapes them. It knows the members FromAGC
// sets; a result with any other member set, or a property it does not
// know how to write, is refused (ok false) and encoding/json writes it.
// TestResultEncoderIsEncodingJSON checks the bytes on every corpus log and
// AGC fixture.

type resultEncoder struct {
	jsonWriter
	bad  bool // something only encoding/json can write
	keys []string
}

// appendResult appends r as encoding/json encodes it; ok is false when it
// cannot, and dst is then returned unchanged.
func appendResult(dst []byte, r *gosarif.Result, e *resultEncoder) ([]byte, bool) {
	e.b, e.comma, e.bad = dst, false, false
	e.result(r)
	if e.bad {
		return dst, false
	}
	return e.b, true
}

// list writes member n, an array of count items written by item. An
// omitempty member is left out when empty; any other is null when nil.
func (e *resultEncoder) list(n string, count int, omitempty, isNil bool, item func(i int)) {
	switch {
	case omitempty && count == 0:
	case isNil:
		e.name(n)
		e.null()
	default:
		e.name(n)
		e.array(count, item)
	}
}

func (e *resultEncoder) null() { e.b = append(e.b, "null"...); e.comma = true }

func (e *resultEncoder) quote(s string) { e.b = appendJSONString(e.b, s); e.comma = true }

func (e *resultEncoder) str(n string, s *string) {
	if s != nil {
		e.name(n)
		e.quote(*s)
	}
}

func (e *resultEncoder) int(n string, v *int) {
	if v != nil {
		e.name(n)
		e.b = strconv.AppendInt(e.b, int64(*v), 10)
		e.comma = true
	}
}

func (e *resultEncoder) uint(n string, v *uint) {
	if v != nil {
		e.name(n)
		e.b = strconv.AppendUint(e.b, uint64(*v), 10)
		e.comma = true
	}
}

// props writes a property bag (a map[string]any member, omitempty).
func (e *resultEncoder) props(n string, m map[string]any) {
	if len(m) == 0 {
		return
	}
	e.name(n)
	keys := e.keys[:0]
	for k := range m {
		keys = append(keys, k)
	}
	e.sortedObject(keys, func(k string) { e.value(m[k]) })
}

// sortedObject writes an object of the members keys, sorted (as
// encoding/json writes a map), value writing each one's value. keys is
// e.keys's storage, which it hands back.
func (e *resultEncoder) sortedObject(keys []string, value func(k string)) {
	slices.Sort(keys)
	e.open()
	for i, k := range keys {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.quote(k)
		e.b = append(e.b, ':')
		value(k)
	}
	e.close()
	e.keys = keys[:0]
}

func (e *resultEncoder) value(v any) {
	switch v := v.(type) {
	case nil:
		e.null()
	case string:
		e.quote(v)
	case bool:
		e.b = strconv.AppendBool(e.b, v)
		e.comma = true
	case rawCompact:
		if len(v) == 0 {
			e.bad = true
			return
		}
		e.b = append(e.b, v...)
		e.comma = true
	case rawJSON:
		e.raw(v)
	default:
		text, err := encode(v)
		if err != nil {
			e.bad = true
			return
		}
		e.b = append(e.b, text...)
		e.comma = true
	}
}

// raw writes what encoding/json makes of a MarshalJSON's text: checked
// and compacted, white space removed and nothing else changed. jsontext
// does that faster (and text without white space outside its strings is
// its own compact form); what jsontext refuses is left to encoding/json.
// FuzzRawJSON checks that they agree.
func (e *resultEncoder) raw(v []byte) {
	switch {
	case len(v) == 0:
		e.bad = true
		return
	case !spaceOutsideStrings(v):
		if !jsontext.Value(v).IsValid(jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)) {
			e.compact(v)
			return
		}
		e.b = append(e.b, v...)
	default:
		start := len(e.b)
		e.b = append(e.b, v...)
		c := jsontext.Value(e.b[start:])
		if c.Compact() != nil {
			e.b = e.b[:start]
			e.compact(v)
			return
		}
		e.b = append(e.b[:start], c...)
	}
	e.comma = true
}

// compact is encoding/json's Compact.
func (e *resultEncoder) compact(v []byte) {
	buf := bytes.NewBuffer(e.b)
	if json.Compact(buf, v) != nil {
		e.bad = true
		return
	}
	e.b = buf.Bytes()
	e.comma = true
}

// spaceOutsideStrings reports whether v, taken as JSON text, has white
// space outside its strings.
func spaceOutsideStrings(v []byte) bool {
	in := false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case !in && (c == ' ' || c == '\t' || c == '\r' || c == '\n'):
			return true
		}
	}
	return false
}

func (e *resultEncoder) result(r *gosarif.Result) {
	if r == nil {
		e.null()
		return
	}
	if r.CorrelationGuid != nil || r.Rule != nil || r.Taxa != nil || r.AnalysisTarget != nil ||
		r.WebRequest != nil || r.WebResponse != nil || r.CodeFlows != nil || r.Graphs != nil ||
		r.GraphTraversals != nil || r.Stacks != nil || r.RelatedLocations != nil || r.Rank != nil ||
		r.Attachments != nil || r.WorkItemUris != nil || r.HostedViewerUri != nil || r.Provenance != nil ||
		r.OccurrenceCount != nil {
		e.bad = true
		return
	}
	e.open()
	e.props("properties", r.Properties)
	e.str("guid", r.Guid)
	e.str("ruleId", r.RuleID)
	e.uint("ruleIndex", r.RuleIndex)
	e.str("kind", r.Kind)
	e.str("level", r.Level)
	e.name("message")
	e.message(&r.Message)
	e.list("locations", len(r.Locations), true, false, func(i int) { e.location(r.Locations[i]) })
	e.props("fingerprints", r.Fingerprints)
	e.props("partialFingerprints", r.PartialFingerprints)
	e.list("suppressions", len(r.Suppressions), true, false, func(i int) { e.suppression(r.Suppressions[i]) })
	e.str("baselineState", r.BaselineState)
	e.list("fixes", len(r.Fixes), true, false, func(i int) { e.fix(r.Fixes[i]) })
	e.close()
}

func (e *resultEncoder) message(m *gosarif.Message) {
	if m == nil {
		e.null()
		return
	}
	e.open()
	e.str("text", m.Text)
	e.str("markdown", m.Markdown)
	e.str("id", m.ID)
	e.list("arguments", len(m.Arguments), true, false, func(i int) { e.quote(m.Arguments[i]) })
	e.props("properties", m.Properties)
	e.close()
}

func (e *resultEncoder) location(l *gosarif.Location) {
	if l == nil {
		e.null()
		return
	}
	if l.Annotations != nil || l.Relationships != nil {
		e.bad = true
		return
	}
	e.open()
	e.uint("id", l.Id)
	if l.PhysicalLocation != nil {
		e.name("physicalLocation")
		e.physical(l.PhysicalLocation)
	}
	e.list("logicalLocations", len(l.LogicalLocations), true, false, func(i int) { e.logical(l.LogicalLocations[i]) })
	if l.Message != nil {
		e.name("message")
		e.message(l.Message)
	}
	e.props("properties", l.Properties)
	e.close()
}

func (e *resultEncoder) physical(p *gosarif.PhysicalLocation) {
	if p.Address != nil {
		e.bad = true
		return
	}
	e.open()
	if p.ArtifactLocation != nil {
		e.name("artifactLocation")
		e.artifact(p.ArtifactLocation)
	}
	if p.Region != nil {
		e.name("region")
		e.region(p.Region)
	}
	if p.ContextRegion != nil {
		e.name("contextRegion")
		e.region(p.ContextRegion)
	}
	e.props("properties", p.Properties)
	e.close()
}

func (e *resultEncoder) artifact(a *gosarif.ArtifactLocation) {
	e.open()
	e.str("uri", a.URI)
	e.str("uriBaseId", a.URIBaseId)
	e.uint("index", a.Index)
	if a.Description != nil {
		e.name("description")
		e.message(a.Description)
	}
	e.props("properties", a.Properties)
	e.close()
}

func (e *resultEncoder) region(r *gosarif.Region) {
	e.open()
	e.int("startLine", r.StartLine)
	e.int("startColumn", r.StartColumn)
	e.int("endLine", r.EndLine)
	e.int("endColumn", r.EndColumn)
	e.int("charOffset", r.CharOffset)
	e.int("charLength", r.CharLength)
	e.int("byteOffset", r.ByteOffset)
	e.int("byteLength", r.ByteLength)
	if r.Snippet != nil {
		e.name("snippet")
		e.content(r.Snippet)
	}
	if r.Message != nil {
		e.name("message")
		e.message(r.Message)
	}
	e.str("sourceLanguage", r.SourceLanguage)
	e.props("properties", r.Properties)
	e.close()
}

func (e *resultEncoder) content(c *gosarif.ArtifactContent) {
	if c.Rendered != nil {
		e.bad = true
		return
	}
	e.open()
	e.str("text", c.Text)
	e.str("binary", c.Binary)
	e.props("properties", c.Properties)
	e.close()
}

func (e *resultEncoder) logical(l *gosarif.LogicalLocation) {
	if l == nil {
		e.null()
		return
	}
	e.open()
	e.uint("index", l.Index)
	e.str("name", l.Name)
	e.str("fullyQualifiedName", l.FullyQualifiedName)
	e.str("decoratedName", l.DecoratedName)
	e.str("kind", l.Kind)
	e.uint("parentIndex", l.ParentIndex)
	e.props("properties", l.Properties)
	e.close()
}

func (e *resultEncoder) fix(f *gosarif.Fix) {
	if f == nil {
		e.null()
		return
	}
	e.open()
	if f.Description != nil {
		e.name("description")
		e.message(f.Description)
	}
	e.list("artifactChanges", len(f.ArtifactChanges), false, f.ArtifactChanges == nil, func(i int) { e.change(f.ArtifactChanges[i]) })
	e.props("properties", f.Properties)
	e.close()
}

func (e *resultEncoder) change(c *gosarif.ArtifactChange) {
	if c == nil {
		e.null()
		return
	}
	e.open()
	e.name("artifactLocation")
	e.artifact(&c.ArtifactLocation)
	e.list("replacements", len(c.Replacements), false, c.Replacements == nil, func(i int) { e.replacement(c.Replacements[i]) })
	e.props("properties", c.Properties)
	e.close()
}

func (e *resultEncoder) replacement(r *gosarif.Replacement) {
	if r == nil {
		e.null()
		return
	}
	e.open()
	e.name("deletedRegion")
	e.region(&r.DeletedRegion)
	if r.InsertedContent != nil {
		e.name("insertedContent")
		e.content(r.InsertedContent)
	}
	e.props("properties", r.Properties)
	e.close()
}

// suppression: go-sarif writes every member, null included.
func (e *resultEncoder) suppression(s *gosarif.Suppression) {
	if s == nil {
		e.null()
		return
	}
	e.open()
	e.name("kind")
	e.quote(s.Kind)
	e.name("status")
	e.strOrNull(s.Status)
	e.name("location")
	e.location(s.Location)
	e.name("guid")
	e.strOrNull(s.Guid)
	e.name("justification")
	e.strOrNull(s.Justification)
	e.props("properties", s.Properties)
	e.close()
}

func (e *resultEncoder) strOrNull(s *string) {
	if s == nil {
		e.null()
	} else {
		e.quote(*s)
	}
}

// appendJSONString appends s quoted as encoding/json quotes it without
// HTML escaping: ", \ and control characters escaped (\b \f \n \r \t by
// name), invalid UTF-8 as U+FFFD, U+2028 and U+2029 escaped.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
