package extract

import "testing"

func TestStripRefDefs(t *testing.T) {
	tests := []struct{ in, want string }{
		{"[a]: /u\n", ""},
		{"[a]: /u\n[b]: <x y> \"t\"\n", ""},
		{"[a]:\n/u\n'multi\nline'\n", ""},
		{"[a]: /u (t)\nText\n", "Text\n"},
		{"[a]: /u \"t\" junk\n", "[a]: /u \"t\" junk\n"},
		{"[a]: /u\n\"t\" junk\n", "\"t\" junk\n"},
		{"[a]: /u junk\n", "[a]: /u junk\n"},
		{"[ ]: /u\n", "[ ]: /u\n"},
		{"[a]:\n", "[a]:\n"},
		{"[a]: <x\n", "[a]: <x\n"},
		{"[a]: (x\n", "[a]: (x\n"},
		{"[a]: a(b)c\n", ""},
		{"[a\\]]: /u\n", ""},
		{"[a[b]: /u\n", "[a[b]: /u\n"},
		{"[a] : /u\n", "[a] : /u\n"},
		{"[a]: /u 't\n", "[a]: /u 't\n"},
		{"Text [a]: /u\n", "Text [a]: /u\n"},
	}
	for _, tc := range tests {
		if got := stripRefDefs(tc.in); got != tc.want {
			t.Errorf("stripRefDefs(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
