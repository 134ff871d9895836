package sarif

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// treeHash is canonicalHash of the JSON a tree was decoded from, computed
// by writing the tree's RFC 8785 form into the hash as it is walked. The
// tree must come from treeDecoder: valid UTF-8, no duplicate names, finite
// numbers, for which jsontext.Value.Canonicalize gives exactly this text.
func treeHash(tree any) string {
	c := canonWriter{h: sha256.New(), buf: make([]byte, 0, canonChunk+512)}
	c.value(tree, 0)
	c.h.Write(c.buf)
	return "sha256:" + hex.EncodeToString(c.h.Sum(nil))
}

// canonChunk is how much canonical text is buffered before it is hashed.
const canonChunk = 32 << 10

type canonWriter struct {
	h    hash.Hash
	buf  []byte
	keys [][]string // member names being sorted, one slice per depth
}

func (c *canonWriter) flush() {
	if len(c.buf) >= canonChunk {
		c.h.Write(c.buf)
		c.buf = c.buf[:0]
	}
}

func (c *canonWriter) value(v any, depth int) {
	switch v := v.(type) {
	case nil:
		c.buf = append(c.buf, "null"...)
	case bool:
		c.buf = strconv.AppendBool(c.buf, v)
	case float64:
		c.buf = appendCanonFloat(c.buf, v)
	case string:
		c.buf = appendCanonString(c.buf, v)
	case []any:
		c.buf = append(c.buf, '[')
		for i, e := range v {
			if i > 0 {
				c.buf = append(c.buf, ',')
			}
			c.value(e, depth+1)
		}
		c.buf = append(c.buf, ']')
	case map[string]any:
		c.object(v, depth)
	}
	c.flush()
}

func (c *canonWriter) object(m map[string]any, depth int) {
	for len(c.keys) <= depth {
		c.keys = append(c.keys, nil)
	}
	keys := sortedKeys(c.keys[depth][:0], m)
	c.buf = append(c.buf, '{')
	for i, k := range keys {
		c.name(i, k)
		c.value(m[k], depth+1)
	}
	c.buf = append(c.buf, '}')
	clear(keys)
	c.keys[depth] = keys[:0]
}

// sortedKeys appends m's member names and extra to keys, in RFC 8785
// order.
func sortedKeys(keys []string, m map[string]any, extra ...string) []string {
	for k := range m {
		keys = append(keys, k)
	}
	keys = append(keys, extra...)
	slices.SortFunc(keys, compareUTF16)
	return keys
}

// name writes the i-th member name of an object and its colon.
func (c *canonWriter) name(i int, k string) {
	if i > 0 {
		c.buf = append(c.buf, ',')
	}
	c.buf = appendCanonString(c.buf, k)
	c.buf = append(c.buf, ':')
}

// appendCanonString quotes valid UTF-8 s as RFC 8785 §3.2.2.2 does: only
// '"', '\\' and control characters are escaped, the latter as \b \t \n \f
// \r or \u00xx in lower case.
func appendCanonString(dst []byte, s string) []byte {
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
func compareUTF16(a, b string) int {
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
	ra, _ := utf8.DecodeRuneInString(a[i:])
	rb, _ := utf8.DecodeRuneInString(b[i:])
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
