package sarif

import (
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// maxTreeDepth bounds nesting: jsontext, which checks the log's syntax
// first (parseTop), refuses more than 10000 levels, so no run read here
// goes deeper.
const maxTreeDepth = 10000

// maxInterned bounds the member names kept for reuse across a log.
const maxInterned = 4096

// treeDecoder decodes JSON that is known to be syntactically valid into the
// tree encoding/json gives (map[string]any, []any, float64, string, bool,
// nil): the reader's property bags and the rare value a lint prints; its
// string and number readers serve canonBytes and the reader. It reads
// what has no exact reading as encoding/json does, and notes it (lossy):
// each invalid UTF-8 byte and each lone surrogate escape is U+FFFD, and of
// duplicate member names the last is kept. It gives up (ok false) only on
// a number out of range.
type treeDecoder struct {
	data  []byte
	pos   int
	names map[string]string // interned member names: logs repeat a few
	buf   []byte            // unescaped string scratch
	stack []any             // array elements being collected
	lossy bool              // something was not read as written
}

func (d *treeDecoder) ws() { d.pos = skipWS(d.data, d.pos) }

func (d *treeDecoder) value(depth int) (any, bool) {
	d.ws()
	if d.pos >= len(d.data) || depth > maxTreeDepth {
		return nil, false
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		return d.object(depth)
	case c == '[':
		return d.array(depth)
	case c == '"':
		b, ok := d.str()
		if !ok {
			return nil, false
		}
		return string(b), true
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	}
	return d.literal()
}

func (d *treeDecoder) literal() (any, bool) {
	for _, l := range [...]struct {
		text string
		v    any
	}{{"true", true}, {"false", false}, {"null", nil}} {
		if len(d.data)-d.pos >= len(l.text) && string(d.data[d.pos:d.pos+len(l.text)]) == l.text {
			d.pos += len(l.text)
			return l.v, true
		}
	}
	return nil, false
}

func (d *treeDecoder) object(depth int) (any, bool) {
	m := make(map[string]any)
	ok := d.members(func(b []byte, _ bool) bool {
		name := d.name(b)
		v, ok := d.value(depth + 1)
		if !ok {
			return false
		}
		if _, dup := m[name]; dup {
			d.lossy = true
		}
		m[name] = v
		return true
	})
	if !ok {
		return nil, false
	}
	return m, true
}

// members reads the object at d.pos (its "{"): for each member it reads
// the name and colon (memberName) and calls fn with d at the value, which
// fn reads. It says whether the object is well formed and fn took every
// member.
func (d *treeDecoder) members(fn func(name []byte, escaped bool) bool) bool {
	d.pos++ // {
	d.ws()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return true
	}
	for {
		b, escaped, ok := d.memberName()
		if !ok || !fn(b, escaped) {
			return false
		}
		if done, ok := d.next('}'); !ok || done {
			return ok
		}
	}
}

// memberName reads a member's name and its colon, leaving d at the value.
// The name is in the input, or in the scratch buffer until the next
// string when it has an escape (escaped).
func (d *treeDecoder) memberName() (name []byte, escaped, ok bool) {
	d.ws()
	if d.pos >= len(d.data) || d.data[d.pos] != '"' {
		return nil, false, false
	}
	start := d.pos
	if name, ok = d.str(); !ok {
		return nil, false, false
	}
	escaped = len(name) < d.pos-start-2 // an escape is longer than what it stands for
	d.ws()
	if d.pos >= len(d.data) || d.data[d.pos] != ':' {
		return nil, false, false
	}
	d.pos = skipWS(d.data, d.pos+1)
	return name, escaped, true
}

// next reads what follows a member or an element: a comma (more to come)
// or the closing byte (done); anything else is not JSON.
func (d *treeDecoder) next(closing byte) (done, ok bool) {
	d.ws()
	if d.pos >= len(d.data) {
		return false, false
	}
	switch d.data[d.pos] {
	case ',':
		d.pos++
		return false, true
	case closing:
		d.pos++
		return true, true
	}
	return false, false
}

// name is the member name b, shared with earlier members of the same name.
func (d *treeDecoder) name(b []byte) string {
	if s, ok := d.names[string(b)]; ok {
		return s
	}
	s := string(b)
	if d.names != nil && len(d.names) < maxInterned {
		d.names[s] = s
	}
	return s
}

func (d *treeDecoder) array(depth int) (any, bool) {
	d.pos++ // [
	base := len(d.stack)
	d.ws()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return []any{}, true
	}
	for {
		v, ok := d.value(depth + 1)
		if !ok {
			return nil, false
		}
		d.stack = append(d.stack, v)
		done, ok := d.next(']')
		switch {
		case !ok:
			return nil, false
		case done:
			out := make([]any, len(d.stack)-base)
			copy(out, d.stack[base:])
			clear(d.stack[base:])
			d.stack = d.stack[:base]
			return out, true
		}
	}
}

// str reads a string literal and returns its unescaped bytes, which alias
// the input or the scratch buffer until the next call.
func (d *treeDecoder) str() ([]byte, bool) {
	start := d.pos + 1
	high := false
	for i := start; i < len(d.data); i++ {
		switch c := d.data[i]; {
		case c == '"':
			if s := d.data[start:i]; !high || utf8.Valid(s) {
				d.pos = i + 1
				return s, true
			}
			return d.escaped(start, start)
		case c == '\\':
			return d.escaped(start, i)
		case c < 0x20:
			return nil, false
		case c >= utf8.RuneSelf:
			high = true
		}
	}
	return nil, false
}

// escaped reads the rest of a string literal from i, which has an escape
// or invalid UTF-8 there or after.
func (d *treeDecoder) escaped(start, i int) ([]byte, bool) {
	if !utf8.Valid(d.data[start:i]) {
		i = start
	}
	b := append(d.buf[:0], d.data[start:i]...)
	defer func() { d.buf = b[:0] }()
	for i < len(d.data) {
		c := d.data[i]
		switch {
		case c == '"':
			d.pos = i + 1
			return b, true
		case c < 0x20:
			return nil, false
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRune(d.data[i:])
			if r == utf8.RuneError && n == 1 {
				d.lossy = true
				b = utf8.AppendRune(b, utf8.RuneError)
			} else {
				b = append(b, d.data[i:i+n]...)
			}
			i += n
			continue
		case c != '\\':
			b = append(b, c)
			i++
			continue
		}
		if i+1 >= len(d.data) {
			return nil, false
		}
		switch e := d.data[i+1]; e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, n := d.unicode(i)
			if n == 0 {
				return nil, false
			}
			b = utf8.AppendRune(b, r)
			i += n
			continue
		default:
			return nil, false
		}
		i += 2
	}
	return nil, false
}

// unicode decodes \uXXXX at i, or a surrogate pair of two such escapes; n
// is the number of bytes read, 0 for bad hex. A lone surrogate is U+FFFD.
func (d *treeDecoder) unicode(i int) (rune, int) {
	r := hex4(d.data[i+2:])
	switch {
	case r < 0:
		return 0, 0
	case !utf16.IsSurrogate(r):
		return r, 6
	}
	if len(d.data) >= i+12 && d.data[i+6] == '\\' && d.data[i+7] == 'u' {
		if pair := utf16.DecodeRune(r, hex4(d.data[i+8:])); pair != utf8.RuneError {
			return pair, 12
		}
	}
	d.lossy = true
	return utf8.RuneError, 6
}

func hex4(b []byte) rune {
	if len(b) < 4 {
		return -1
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}

// number reads a number as encoding/json does: a float64, refused when out
// of range.
func (d *treeDecoder) number() (any, bool) {
	f, _, ok := d.float()
	if !ok {
		return nil, false
	}
	return f, true
}

// float reads a number as a float64; plain is whether its text is already
// the canonical form of its value (an integer below 2^53 without a sign).
func (d *treeDecoder) float() (f float64, plain, ok bool) {
	start := d.pos
	digits, plain := 0, true
	var n uint64
	for ; d.pos < len(d.data); d.pos++ {
		c := d.data[d.pos]
		switch {
		case c >= '0' && c <= '9':
			n = n*10 + uint64(c-'0')
			digits++
			continue
		case c == '-' && d.pos == start:
			plain = false
			continue
		case c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-':
			plain = false
			continue
		}
		break
	}
	if plain && digits > 0 && digits <= 15 {
		return float64(n), true, true // exact: below 2^53
	}
	f, err := strconv.ParseFloat(string(d.data[start:d.pos]), 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, false, false
	}
	return f, false, true
}
