package diag

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestText(t *testing.T) {
	tests := []struct {
		p    Place
		want string
	}{
		{Place{File: "review.json", Line: 4, Column: 17, Offset: 80, Pointer: "/findings/0/severity"}, "review.json:4:17: /findings/0/severity: m"},
		{Place{File: "review.json", Line: 4, Column: 17}, "review.json:4:17: m"},
		{Place{File: "msg.md", Line: 3, Pointer: "/a"}, "msg.md:3: /a: m"},
		{Place{File: "log.sarif", Pointer: "/runs"}, "log.sarif: /runs: m"},
		{Place{File: "f"}, "f: m"},
		{Place{Pointer: "/runs"}, "/runs: m"},
		{Place{Line: 2, Column: 1}, "2:1: m"},
		{Place{}, "m"},
	}
	for _, tt := range tests {
		if got := tt.p.Text("m"); got != tt.want {
			t.Errorf("%#v.Text = %q, want %q", tt.p, got, tt.want)
		}
	}
	l := Lint{Place: Place{File: "f", Line: 1}, Message: "advice"}
	if l.String() != "f:1: advice" {
		t.Errorf("Lint.String = %q", l.String())
	}
}

func TestAt(t *testing.T) {
	src := []byte("{\n  \"a\": 1,\n  \"é\": x\n}")
	tests := []struct {
		off  int64
		want Place
	}{
		{0, Place{Line: 1, Column: 1, Offset: 0}},
		{1, Place{Line: 1, Column: 2, Offset: 1}}, // the line break ends line 1
		{2, Place{Line: 2, Column: 1, Offset: 2}},
		{9, Place{Line: 2, Column: 8, Offset: 9}},
		{20, Place{Line: 3, Column: 9, Offset: 20}}, // bytes, not characters: é is two
		{999, Place{Line: 4, Column: 2, Offset: int64(len(src))}},
		{-1, Place{}},
	}
	for _, tt := range tests {
		if d := cmp.Diff(tt.want, At(src, tt.off)); d != "" {
			t.Errorf("At(%d) (-want +got):\n%s", tt.off, d)
		}
	}
	if p := At(nil, 0); p != (Place{Line: 1, Column: 1}) || !p.HasOffset() {
		t.Errorf("At(empty, 0) = %#v", p)
	}
}

func TestOffsets(t *testing.T) {
	src := []byte(`{"a": {"b~c/d": [10, {"x": true}]}, "a": 7, "e": "` + "\xff" + `", "f": [1, 2`)
	tests := []struct {
		ptr  string
		want string // the source from the offset on, cut to a few bytes
	}{
		{"", `{"a": `},
		{"/a", `{"b~c/`},
		{"/a/b~0c~1d", `[10, {`},
		{"/a/b~0c~1d/0", `10, {"`},
		{"/a/b~0c~1d/1/x", `true}]`},
		{"/a/missing/deeper", `{"b~c/`}, // the nearest value that exists
		{"/a/b~0c~1d/9", `[10, {`},
		{"/e", `"` + "\xff" + `", "`},
		{"/f/1", `2`}, // before the syntax error at the end
		{"/f/5", `[1, 2`},
		{"no-slash", `{"a": `},
	}
	ptrs := make([]string, len(tests))
	for i, tt := range tests {
		ptrs[i] = tt.ptr
	}
	for i, off := range Offsets(src, ptrs) {
		got := "none"
		if off >= 0 {
			got = string(src[off:min(off+6, int64(len(src)))])
		}
		if got != tests[i].want {
			t.Errorf("Offsets %q = %d %q, want %q", tests[i].ptr, off, got, tests[i].want)
		}
	}
	if got := Offsets([]byte("  "), []string{"/a"}); got[0] != -1 {
		t.Errorf("no document: %v", got)
	}
}

func TestLocate(t *testing.T) {
	src := []byte("{\n  \"gate\": {\n    \"id\": 3\n  }\n}\n")
	a := Place{File: "f", Pointer: "/gate/id"}
	b := Place{File: "f", Pointer: "/gate/version"}
	kept := Place{File: "f", Line: 9, Pointer: "/gate"}
	Locate(src, &a, &b, &kept)
	want := []Place{
		{File: "f", Line: 3, Column: 11, Offset: 24, Pointer: "/gate/id"},
		{File: "f", Line: 2, Column: 11, Offset: 12, Pointer: "/gate/version"},
		{File: "f", Line: 9, Pointer: "/gate"},
	}
	if d := cmp.Diff(want, []Place{a, b, kept}); d != "" {
		t.Errorf("Locate (-want +got):\n%s", d)
	}
}

type placed struct {
	Place
	msg string
}

func (e *placed) Error() string { return e.Place.Text(e.msg) }

func TestPlaceOf(t *testing.T) {
	p := Place{File: "f", Line: 2}
	err := fmt.Errorf("context: %w", &placed{p, "bad"})
	if got, ok := PlaceOf(err); !ok || got != p {
		t.Errorf("PlaceOf = %v %v", got, ok)
	}
	if _, ok := PlaceOf(errors.New("plain")); ok {
		t.Error("a plain error has no place")
	}
}

func TestOneLine(t *testing.T) {
	if got := OneLine("a\nb\r\n\x1b[31mc  d\u0085e\t"); got != "a b [31mc d e" {
		t.Errorf("OneLine = %q", got)
	}
}

// FuzzOffsets: no input panics the walk, and every offset found lies in src.
func FuzzOffsets(f *testing.F) {
	f.Add([]byte(`{"a":[1,{"b":2}]}`), "/a/1/b")
	f.Add([]byte(`[{"x":`), "/0/x")
	f.Fuzz(func(t *testing.T, src []byte, ptr string) {
		for _, off := range Offsets(src, []string{ptr, "", ptr + "/0"}) {
			if off < -1 || off > int64(len(src)) {
				t.Fatalf("offset %d outside a source of %d bytes", off, len(src))
			}
		}
	})
}

func TestLineOffset(t *testing.T) {
	data := []byte("a\nbc\n")
	for _, c := range []struct {
		n, off int
		ok     bool
	}{{1, 0, true}, {2, 2, true}, {3, 5, true}, {4, 0, false}} {
		if off, ok := nc.LineOffset(data, c.n); off != c.off || ok != c.ok {
			t.Errorf("LineOffset(line %d) = %d, %v; want %d, %v", c.n, off, ok, c.off, c.ok)
		}
	}
}

// TestError: the one error with a place prints in the one form, the class
// (when there is one) before the message, and PlaceOf finds its place
// through wrapping.
func TestError(t *testing.T) {
	tests := []struct {
		e    *Error
		want string
	}{
		{&Error{Place: Place{File: "r.json", Line: 4, Column: 17, Offset: 80, Pointer: "/a"}, Class: "json.syntax", Msg: "m"}, "r.json:4:17: /a: json.syntax: m"},
		{&Error{Place: Place{File: "d.diff", Line: 3}, Msg: "m"}, "d.diff:3: m"},
		{&Error{Place: Place{File: "log.sarif", Pointer: "/runs"}, Msg: "m"}, "log.sarif: /runs: m"},
		{&Error{Class: "schema", Msg: "m"}, "schema: m"},
		{&Error{Msg: "m"}, "m"},
	}
	for _, tt := range tests {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("%#v.Error() = %q, want %q", tt.e, got, tt.want)
		}
		wrapped := fmt.Errorf("reading: %w", tt.e)
		var e *Error
		if !errors.As(wrapped, &e) || e != tt.e {
			t.Errorf("errors.As(%v) did not find the *Error", wrapped)
		}
		if p, ok := PlaceOf(wrapped); !ok || p != tt.e.Place {
			t.Errorf("PlaceOf(%v) = %v, %v; want %v", wrapped, p, ok, tt.e.Place)
		}
	}
}
