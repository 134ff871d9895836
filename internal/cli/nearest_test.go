package cli

import "testing"

func TestNearest(t *testing.T) {
	cands := []string{"chain", "format", "from", "max-bytes", "to"}
	cases := []struct{ s, want string }{
		{"form", "from"},     // a swap is one edit, format is two
		{"chian", "chain"},   // a swap
		{"fromat", "format"}, // a swap
		{"max-byte", "max-bytes"},
		{"zzzzzzzz", ""},
		{"x", ""},  // one edit from "to" is half of "x": no guess
		{"tp", ""}, // one edit in two bytes: too far to guess
	}
	for _, c := range cases {
		if got := nearest(c.s, cands); got != c.want {
			t.Errorf("nearest(%q) = %q, want %q", c.s, got, c.want)
		}
	}
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "abc", 3}, {"kitten", "sitting", 3}, {"ab", "ba", 1}, {"abc", "abc", 0}, {"ca", "abc", 3}} {
		if got := editDistance(c.a, c.b); got != c.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}
