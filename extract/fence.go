package extract

import (
	"strconv"
	"strings"

	"github.com/yuin/goldmark/util"
)

const agcLang = "agc"

// infoLang is the first word of an info string after backslash escapes and
// character references are decoded.
func infoLang(info string) string {
	u := unescape(info)
	if i := strings.IndexAny(u, " \t\n\v\f\r"); i >= 0 {
		return u[:i]
	}
	return u
}

// unescape decodes backslash escapes of ASCII punctuation and character
// references (&#97; &#x61; &amp;) in one pass, as CommonMark does in info
// strings: "\&#97;" is "&#97;", not "a".
func unescape(s string) string {
	if !strings.ContainsAny(s, `\&`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		switch {
		case s[i] == '\\' && i+1 < len(s) && util.IsPunct(s[i+1]):
			b.WriteByte(s[i+1])
			i += 2
		case s[i] == '&':
			ref, n := charRef(s[i:])
			if n == 0 {
				b.WriteByte('&')
				i++
				continue
			}
			b.WriteString(ref)
			i += n
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String()
}

// charRef decodes the character reference at the start of s, returning
// its text and the bytes used, or "", 0.
func charRef(s string) (string, int) {
	if strings.HasPrefix(s, "&#") {
		r, n := numericRef(s)
		return string(r), n
	}
	end := strings.IndexByte(s, ';')
	if end < 2 || end > 33 {
		return "", 0
	}
	if e, ok := util.LookUpHTML5EntityByName(s[1:end]); ok {
		return string(e.Characters), end + 1
	}
	return "", 0
}

// numericRef decodes "&#123;" or "&#x7B;" at the start of s, returning the
// rune and the bytes used, or 0, 0.
func numericRef(s string) (rune, int) {
	base, start, maxDigits := 10, 2, 7
	if len(s) > 2 && (s[2] == 'x' || s[2] == 'X') {
		base, start, maxDigits = 16, 3, 6
	}
	end := start
	for end < len(s) && end-start < maxDigits && isDigit(s[end], base) {
		end++
	}
	if end == start || end >= len(s) || s[end] != ';' {
		return 0, 0
	}
	v, _ := strconv.ParseUint(s[start:end], base, 32)
	return util.ToValidRune(rune(v)), end + 1
}

func isDigit(b byte, base int) bool {
	if '0' <= b && b <= '9' {
		return true
	}
	b |= 0x20
	return base == 16 && 'a' <= b && b <= 'f'
}
