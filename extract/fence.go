package extract

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

const agcLang = "agc"

// run counts the leading bytes of s equal to ch.
func run(s string, ch byte) int {
	n := 0
	for n < len(s) && s[n] == ch {
		n++
	}
	return n
}

// openingFence returns the fence character and length when s (from the
// first non-space character) opens a fenced code block, else 0, 0.
func openingFence(s string) (ch byte, n int) {
	if s == "" || (s[0] != '`' && s[0] != '~') {
		return 0, 0
	}
	ch = s[0]
	n = run(s, ch)
	if n < 3 {
		return 0, 0
	}
	if ch == '`' && strings.IndexByte(s[n:], '`') >= 0 {
		return 0, 0 // a backtick fence's info string may not hold backticks
	}
	return ch, n
}

// closingFence returns the length of the fence when s (from the first
// non-space character) is a closing fence of character ch, else 0.
func closingFence(s string, ch byte) int {
	n := run(s, ch)
	if n < 3 || trimSpaceTab(s[n:]) != "" {
		return 0
	}
	return n
}

func trimSpaceTab(s string) string {
	return strings.Trim(s, " \t")
}

// infoLang is the first word of an info string after backslash escapes and
// numeric character references are decoded.
func infoLang(info string) string {
	u := unescape(info)
	if i := strings.IndexAny(u, " \t\n\v\f\r"); i >= 0 {
		return u[:i]
	}
	return u
}

// unescape decodes backslash escapes of ASCII punctuation and numeric
// character references (&#97; &#x61;), as CommonMark does in info strings.
func unescape(s string) string {
	if !strings.ContainsAny(s, `\&`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		switch {
		case s[i] == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]):
			b.WriteByte(s[i+1])
			i += 2
		case s[i] == '&':
			r, n := numericRef(s[i:])
			if n == 0 {
				b.WriteByte('&')
				i++
				continue
			}
			b.WriteRune(r)
			i += n
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String()
}

// numericRef decodes "&#123;" or "&#x7B;" at the start of s, returning the
// rune and the bytes used, or 0, 0.
func numericRef(s string) (rune, int) {
	if !strings.HasPrefix(s, "&#") {
		return 0, 0
	}
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
	v, err := strconv.ParseUint(s[start:end], base, 32)
	if err != nil || v == 0 || v > utf8.MaxRune || (v >= 0xD800 && v <= 0xDFFF) {
		return utf8.RuneError, end + 1
	}
	return rune(v), end + 1
}

func isDigit(b byte, base int) bool {
	if '0' <= b && b <= '9' {
		return true
	}
	b |= 0x20
	return base == 16 && 'a' <= b && b <= 'f'
}

func isASCIIPunct(b byte) bool {
	return strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", b) >= 0
}
