package review

import (
	"fmt"
	"testing"
)

func TestHiddenIn(t *testing.T) {
	tests := []struct {
		s    string
		crlf bool
		want []rune
	}{
		{"plain\tascii\n", false, nil},
		{"é ü 名 😀\n", false, nil},
		{"a\r\nb\r\n", true, nil},
		{"a\r\nb\r\n", false, []rune{'\r'}},
		{"a\rb\n", true, []rune{'\r'}},
		{"\u202a\u202b\u202c\u202d\u202e", false, []rune{0x202a, 0x202b, 0x202c, 0x202d, 0x202e}},
		{"\u2066\u2067\u2068\u2069\u2066", false, []rune{0x2066, 0x2067, 0x2068, 0x2069}},
		{"\u200b\u200c\u200d\u200e\u200f\ufeff", false, []rune{0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0xfeff}},
		{"\x00\x7f\u0085\u009f", false, []rune{0, 0x7f, 0x85, 0x9f}},
		{"tag\U000e0041", false, []rune{0xe0041}},
		{"bad\xffbyte", false, []rune{0xfffd}},
	}
	for _, tc := range tests {
		got := hiddenIn(tc.s, tc.crlf)
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("hiddenIn(%q, %v) = %U, want %U", tc.s, tc.crlf, got, tc.want)
		}
	}
}
