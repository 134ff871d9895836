package sarif

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// appendCanonString quotes valid UTF-8 s as RFC 8785 §3.2.2.2 does: only
// '"', '\\' and control characters are escaped, the latter as \b \t \n \f
// \r or \u00xx in lower case.
func appendCanonString[S ~string | ~[]byte](dst []byte, s S) []byte {
	const hexDigits = "0123456789abcdef"
	dst = append(dst, '"')
	last := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[last:i]...)
		last = i + 1
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\b':
			dst = append(dst, `\b`...)
		case '\t':
			dst = append(dst, `\t`...)
		case '\n':
			dst = append(dst, `\n`...)
		case '\f':
			dst = append(dst, `\f`...)
		case '\r':
			dst = append(dst, `\r`...)
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
	}
	dst = append(dst, s[last:]...)
	return append(dst, '"')
}

// appendCanonFloat writes a finite number as ECMAScript's Number.toString
// does (RFC 8785 §3.2.2.3), as jsontext does: shortest round-trip digits,
// exponent form below 1e-6 and from 1e21 on, and 0 for negative zero.
func appendCanonFloat(dst []byte, f float64) []byte {
	if f == 0 {
		return append(dst, '0')
	}
	format := byte('f')
	if abs := math.Abs(f); abs < 1e-6 || abs >= 1e21 {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// e-07 → e-7, e+21 stays.
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}

// compareUTF16 orders valid UTF-8 strings by their UTF-16 code units, as
// RFC 8785 §3.2.3 sorts member names. UTF-8 byte order differs from it only
// between U+E000–U+FFFF and the supplementary planes.
func compareUTF16[S ~string | ~[]byte](a, b S) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	switch {
	case i == len(a) || i == len(b):
		return len(a) - len(b)
	case a[i] < utf8.RuneSelf || b[i] < utf8.RuneSelf:
		return int(a[i]) - int(b[i])
	}
	for i > 0 && !utf8.RuneStart(a[i]) {
		i--
	}
	ra, _ := utf8.DecodeRuneInString(string(a[i:]))
	rb, _ := utf8.DecodeRuneInString(string(b[i:]))
	return int(utf16Key(ra)) - int(utf16Key(rb))
}

// utf16Key maps a rune to a value ordered as its UTF-16 encoding is: the
// supplementary planes (surrogate pairs, D800–DBFF first) sort after
// U+0000–U+D7FF and before U+E000–U+FFFF.
func utf16Key(r rune) rune {
	switch {
	case r < 0xD800:
		return r
	case r >= 0x10000:
		return 0xD800 + (r - 0x10000)
	}
	return 0xD800 + 0x100000 + (r - 0xE000)
}

// canonChunk is how much canonical text is buffered before it is hashed.
const canonChunk = 32 << 10

// canonBytes writes the RFC 8785 canonical form of JSON read from its
// bytes: each object's members are written as they come, then put in
// order. Text outside every object being ordered is hashed in chunks.
// What has no canonical form (d.lossy: invalid UTF-8, a lone surrogate, a
// duplicate name) is still read through; the run's fingerprint is then the
// hash of its bytes. It stops only at a number out of range (badNumber).
type canonBytes struct {
	d         treeDecoder // reads strings and numbers as the tree does
	badNumber []byte      // the number out of range that stopped it
	h         hash.Hash
	out       []byte
	tmp       []byte
	marks     [][]canonMember // one slice per depth
	nest      int             // objects around the place being written
	order     []int32         // the members of an object, sorted
	elems     [][]jv          // the elements of the arrays being written, per depth

	// When record is set, each object's members are kept in tab and the
	// object in objs, in the order the objects end, and each array's
	// elements in etab and the array in arrs, for the reader to read them
	// without scanning them again (reader.index, reader.elements).
	record bool
	tab    []jmember
	objs   []canonObj
	etab   []jv
	arrs   []canonObj
}

// canonObj is an object recorded: where it ends in the data, and where
// its members are in tab.
type canonObj struct {
	end, mem, n int
}

// members is the recorded members of the object that ends at offset end,
// ok false when it was not recorded.
func (c *canonBytes) members(end int) (jobj, bool) {
	o, ok := recorded(c.objs, end)
	return jobj(c.tab[o.mem : o.mem+o.n : o.mem+o.n]), ok
}

// elements is the recorded elements of the array that ends at offset end.
func (c *canonBytes) elements(end int) ([]jv, bool) {
	o, ok := recorded(c.arrs, end)
	return c.etab[o.mem : o.mem+o.n : o.mem+o.n], ok
}

func recorded(objs []canonObj, end int) (canonObj, bool) {
	i, found := slices.BinarySearchFunc(objs, end, func(o canonObj, end int) int { return o.end - end })
	if !found {
		return canonObj{}, false
	}
	return objs[i], true
}

// canonMember is a member name, where "name":value lies in out and its
// value in the data.
type canonMember struct {
	name       []byte
	start, end int
	v          jv
}

func newCanon(data []byte, names map[string]string) *canonBytes {
	return &canonBytes{d: treeDecoder{data: data, names: names}, h: sha256.New(), out: make([]byte, 0, canonChunk+512)}
}

// fail is the error that stopped the canonical pass: a number out of
// range (the log's syntax was checked before).
func (c *canonBytes) fail() error {
	return fmt.Errorf("number %s is out of range", c.badNumber)
}

// canonicalText is the value v in RFC 8785 form.
func canonicalText(v []byte) []byte {
	c := canonBytes{d: treeDecoder{data: v}, nest: 1} // nest: nothing hashed
	c.value(0, 0)
	return c.out
}

// flush hashes what was written when nothing of it is to be reordered.
func (c *canonBytes) flush() {
	if c.nest == 0 && len(c.out) >= canonChunk {
		c.h.Write(c.out)
		c.out = c.out[:0]
	}
}

// sum hashes the rest and is the fingerprint.
func (c *canonBytes) sum() string {
	c.h.Write(c.out)
	return "sha256:" + hex.EncodeToString(c.h.Sum(nil))
}

// value writes the value at offset i and leaves c.d after it; false for
// what the reader does not read as is.
func (c *canonBytes) value(i, depth int) bool {
	d := &c.d
	d.pos = i
	d.ws()
	if d.pos >= len(d.data) || depth > maxTreeDepth {
		return false
	}
	switch ch := d.data[d.pos]; {
	case ch == '{':
		return c.object(depth)
	case ch == '[':
		return c.array(depth)
	case ch == '"':
		b, ok := d.str()
		c.out = appendCanonString(c.out, b)
		return ok
	case ch == '-' || ch >= '0' && ch <= '9':
		start := d.pos
		f, plain, ok := d.float()
		if !ok {
			c.badNumber = d.data[start:d.pos]
		} else if plain {
			c.out = append(c.out, d.data[start:d.pos]...) // digits, as they are
		} else {
			c.out = appendCanonFloat(c.out, f)
		}
		return ok
	}
	start := d.pos
	if _, ok := d.literal(); !ok {
		return false
	}
	c.out = append(c.out, d.data[start:d.pos]...)
	return true
}

func (c *canonBytes) object(depth int) bool {
	d := &c.d
	for len(c.marks) <= depth {
		c.marks = append(c.marks, nil)
	}
	marks := c.marks[depth][:0]
	start := len(c.out)
	c.out = append(c.out, '{')
	c.nest++
	ok := d.members(func(b []byte, escaped bool) bool {
		if escaped {
			b = bytes.Clone(b) // out of the scratch buffer
		}
		if len(marks) > 0 {
			c.out = append(c.out, ',')
		}
		m := canonMember{name: b, start: len(c.out)}
		c.out = append(appendCanonString(c.out, m.name), ':')
		at := d.pos
		if !c.value(at, depth+1) {
			return false
		}
		m.end, m.v = len(c.out), d.data[at:d.pos]
		marks = append(marks, m)
		return true
	})
	if !ok {
		return false
	}
	c.nest--
	c.marks[depth] = marks
	if c.record {
		c.objs = append(c.objs, canonObj{end: d.pos, mem: len(c.tab), n: len(marks)})
		for _, m := range marks {
			c.tab = append(c.tab, jmember{name: m.name, v: m.v})
		}
	}
	// The members' order by name, sorted as indexes: a member is large.
	order := c.order[:0]
	for k := range marks {
		order = append(order, int32(k))
	}
	c.order = order
	byName := func(a, b int32) int { return compareUTF16(marks[a].name, marks[b].name) }
	if !slices.IsSortedFunc(order, byName) {
		slices.SortFunc(order, byName)
		c.tmp = append(c.tmp[:0], c.out[start:]...)
		c.out = c.out[:start+1]
		for k, i := range order {
			if k > 0 {
				c.out = append(c.out, ',')
			}
			c.out = append(c.out, c.tmp[marks[i].start-start:marks[i].end-start]...)
		}
	}
	for k := 1; k < len(order); k++ {
		if bytes.Equal(marks[order[k]].name, marks[order[k-1]].name) {
			d.lossy = true // a duplicate name: the fingerprint hashes the bytes
		}
	}
	c.out = append(c.out, '}')
	return true
}

func (c *canonBytes) array(depth int) bool {
	d := &c.d
	d.pos++ // [
	c.out = append(c.out, '[')
	d.ws()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		c.out = append(c.out, ']')
		return true
	}
	for len(c.elems) <= depth {
		c.elems = append(c.elems, nil)
	}
	elems := c.elems[depth][:0]
	for i := 0; ; i++ {
		if i > 0 {
			c.out = append(c.out, ',')
		}
		at := skipWS(d.data, d.pos)
		if !c.value(at, depth+1) {
			return false
		}
		if c.record {
			elems = append(elems, d.data[at:d.pos])
		}
		c.flush()
		switch done, ok := d.next(']'); {
		case !ok:
			return false
		case done:
			c.out = append(c.out, ']')
			c.elems[depth] = elems
			if c.record {
				c.arrs = append(c.arrs, canonObj{end: d.pos, mem: len(c.etab), n: len(elems)})
				c.etab = append(c.etab, elems...)
			}
			return true
		}
	}
}
