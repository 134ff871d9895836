package sarif

import (
	"bytes"

	"github.com/go-json-experiment/json/jsontext"
)

// The reader reads a run straight from its bytes, which are known to be
// JSON (parseTop read them), without a generic tree: a value is its bytes
// (jv), and an object is indexed once, when it is read, into its members'
// names and values (jobj), in a buffer reused from one result to the next.
// Before a part of a run is read, readRun's canonical pass (canonBytes)
// has read all of it, so its numbers are in range.

// jv is one JSON value: its bytes, nil when absent.
type jv []byte

// kind is the kind of v as jsontext names it ('{', '[', '"', '0', 't',
// 'f', 'n'), 0 when absent.
func (v jv) kind() byte {
	if len(v) == 0 {
		return 0
	}
	switch c := v[0]; {
	case c == '-' || c >= '0' && c <= '9':
		return '0'
	default:
		return c
	}
}

// null reports whether v is absent or null, which a member reads as not
// set.
func (v jv) null() bool { return len(v) == 0 || v[0] == 'n' }

// kindName is v's kind in a lint: "a string", "an object".
func (v jv) kindName() string { return tokKind(jsontext.Kind(v.kind())) }

// jmember is a member of an indexed object: its name unescaped, its value.
type jmember struct {
	name []byte
	v    jv
}

// jobj is an indexed object: nil for none, empty (not nil) for {}.
type jobj []jmember

// get is the value of the member named key, nil when there is none; the
// last of duplicate names, as encoding/json reads them.
func (o jobj) get(key string) jv {
	for i := len(o) - 1; i >= 0; i-- {
		if string(o[i].name) == key {
			return o[i].v
		}
	}
	return nil
}

// skipWS is the offset of the first byte at or after i of b that is not
// JSON white space.
func skipWS(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// valueEnd is the offset just past the JSON value that starts at i of b,
// which is syntactically valid; -1 when it is not there whole.
func valueEnd(b []byte, i int) int {
	depth := 0
	for i < len(b) {
		switch b[i] {
		case '"':
			i = stringEnd(b, i)
			if i < 0 || depth == 0 {
				return i
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i // after a number or literal
			}
			if depth--; depth == 0 {
				return i + 1
			}
		case ',', ':', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return i
			}
		}
		i++
	}
	if depth == 0 {
		return i // a number or literal at the end
	}
	return -1
}

// stringEnd is the offset just past the string literal at i of b, -1 when
// it does not end.
func stringEnd(b []byte, i int) int {
	for i++; ; {
		q := bytes.IndexByte(b[i:], '"')
		if q < 0 {
			return -1
		}
		i += q
		// The quote ends the string unless an odd number of backslashes
		// comes before it.
		n := 0
		for n < i && b[i-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			return i + 1
		}
		i++
	}
}

// unquote is the text of the string literal s (quotes included): its
// bytes in place when it has no escape and is valid UTF-8, else decoded
// anew (treeDecoder.str).
func unquote(s []byte) []byte {
	d := treeDecoder{data: s}
	b, _ := d.str()
	return b
}

// end is where v ends in the data canonBytes records a result's objects
// and arrays in, while it does; ok is false otherwise. How far v and data
// reach tells where v starts.
func (rd *reader) end(v jv) (int, bool) {
	if rd.canon == nil || len(v) == 0 {
		return 0, false
	}
	data := rd.canon.d.data
	off := cap(data) - cap(v)
	if off < 0 || off >= len(data) || &data[off] != &v[0] {
		return 0, false
	}
	return off + len(v), true
}

// index reads the members of the object v into the reader's buffer.
func (rd *reader) index(v jv) jobj {
	if end, ok := rd.end(v); ok {
		if o, ok := rd.canon.members(end); ok {
			return o
		}
	}
	if rd.mem == nil {
		rd.mem = make([]jmember, 0, 64)
	}
	start := len(rd.mem)
	i := skipWS(v, 1)
	for i < len(v) && v[i] == '"' {
		e := stringEnd(v, i)
		name := unquote(v[i:e])
		i = skipWS(v, e)
		i = skipWS(v, i+1) // ':'
		e = valueEnd(v, i)
		if e < 0 {
			break
		}
		rd.mem = append(rd.mem, jmember{name: name, v: v[i:e]})
		i = skipWS(v, e)
		if i < len(v) && v[i] == ',' {
			i = skipWS(v, i+1)
		}
	}
	return jobj(rd.mem[start:len(rd.mem):len(rd.mem)])
}

// elements reads the elements of the array v into the reader's buffer.
func (rd *reader) elements(v jv) []jv {
	if end, ok := rd.end(v); ok {
		if e, ok := rd.canon.elements(end); ok {
			return e
		}
	}
	if rd.elems == nil {
		rd.elems = make([]jv, 0, 64)
	}
	start := len(rd.elems)
	i := skipWS(v, 1)
	for i < len(v) && v[i] != ']' {
		e := valueEnd(v, i)
		if e < 0 {
			break
		}
		rd.elems = append(rd.elems, v[i:e])
		i = skipWS(v, e)
		if i < len(v) && v[i] == ',' {
			i = skipWS(v, i+1)
		}
	}
	return rd.elems[start:len(rd.elems):len(rd.elems)]
}

// text is the string value v, shared with earlier equal short strings when
// intern is set (rule ids, levels, URIs: a log repeats a few).
func (rd *reader) text(v jv, intern bool) string {
	b := unquote(v)
	if !intern {
		return string(b)
	}
	return rd.intern(b)
}

// intern is b as a string, shared with earlier equal short ones.
func (rd *reader) intern(b []byte) string {
	if len(b) > maxInternedLen {
		return string(b)
	}
	if s, ok := rd.strs[string(b)]; ok {
		return s
	}
	s := string(b)
	if rd.strs == nil {
		rd.strs = map[string]string{}
	}
	if len(rd.strs) < maxInterned {
		rd.strs[s] = s
	}
	return s
}

// maxInternedLen bounds the strings text interns.
const maxInternedLen = 256

// tree is v decoded as encoding/json decodes into an any, for what the
// model keeps as a tree (property bags) and for the rare value a lint
// prints.
func (rd *reader) tree(v jv) any {
	d := treeDecoder{data: v, names: rd.names}
	t, _ := d.value(0) // ok: the canonical pass read every number of the run
	return t
}
