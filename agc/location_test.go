package agc_test

import (
	"testing"

	"github.com/agcgate/agc-action/agc"
)

// TestLocationForm: every position a converter reads is written as one
// string and read back the same, and what is not a position stays in the
// place (docs/convert.md, "Positions").
func TestLocationForm(t *testing.T) {
	for _, tc := range []struct {
		place string
		pos   agc.Position
		want  string
	}{
		{"app.js", agc.Position{}, "app.js"},
		{"app.js", agc.Position{Line: 1}, "app.js:1"},
		{"m.go", agc.Position{Line: 2, EndLine: 4}, "m.go:2-4"},
		{"m.go", agc.Position{Line: 2, EndLine: 2}, "m.go:2"},
		{"app.js", agc.Position{Line: 1, Column: 5}, "app.js:1:5"},
		{"app.js", agc.Position{Line: 1, Column: 5, EndLine: 1, EndColumn: 6}, "app.js:1:5-1:6"},
		{"app.js", agc.Position{Line: 1, Column: 5, EndColumn: 6}, "app.js:1:5-1:6"}, // end line defaults to the start's
		{"app.js", agc.Position{Line: 1, Column: 5, EndLine: 3}, "app.js:1:5-3"},
		{"app.js", agc.Position{Line: 1, EndLine: 3, EndColumn: 2}, "app.js:1:1-3:2"}, // start column defaults to 1
		{"C:/dev/app.js", agc.Position{Line: 7}, "C:/dev/app.js:7"},
		{"a.cc#ns::Foo", agc.Position{Line: 12, Column: 3}, "a.cc#ns::Foo:12:3"},
		{"a.go", agc.Position{Line: 0, Column: 4}, "a.go"}, // no line: no position
		{"", agc.Position{Line: 3}, ""},                    // no place: a bare line is not written
	} {
		got := agc.FormatLocation(tc.place, tc.pos)
		if got != tc.want {
			t.Errorf("FormatLocation(%q, %+v) = %q, want %q", tc.place, tc.pos, got, tc.want)
			continue
		}
		if tc.place == "" {
			continue
		}
		place, pos := agc.ParseLocation(got)
		want := tc.pos.Normal()
		if place != tc.place || pos != want {
			t.Errorf("ParseLocation(%q) = %q, %+v; want %q, %+v", got, place, pos, tc.place, want)
		}
	}
}

// TestParseLocation reads the forms people and older versions wrote, and
// leaves alone what only looks like a position.
func TestParseLocation(t *testing.T) {
	for _, tc := range []struct {
		loc   string
		place string
		pos   agc.Position
	}{
		{"README.md", "README.md", agc.Position{}},
		{"Bash.command", "Bash.command", agc.Position{}},
		{"C:/dev/x.js", "C:/dev/x.js", agc.Position{}},
		{"a.go#Foo", "a.go#Foo", agc.Position{}},
		{"a.go:12", "a.go", agc.Position{Line: 12}},
		{"a.go:12:5", "a.go", agc.Position{Line: 12, Column: 5}},
		{"a.go:12-14", "a.go", agc.Position{Line: 12, EndLine: 14}},
		{"a.go:12:5-14:2", "a.go", agc.Position{Line: 12, Column: 5, EndLine: 14, EndColumn: 2}},
		{"a.go#L12", "a.go", agc.Position{Line: 12}}, // GitHub's anchor, read only
		{"a.go#L12-L14", "a.go", agc.Position{Line: 12, EndLine: 14}},
		{"a.go:14-12", "a.go:14-12", agc.Position{}},     // backwards: not a position
		{"a.go:0", "a.go:0", agc.Position{}},             // lines count from 1
		{"a.go:1:5-1:3", "a.go:1:5-1:3", agc.Position{}}, // ends before it starts
		{"a.go:99999999999999999999", "a.go:99999999999999999999", agc.Position{}},
		{"12", "12", agc.Position{}}, // a bare number has no place to be a position in
		{"line 12", "line 12", agc.Position{}},
	} {
		place, pos := agc.ParseLocation(tc.loc)
		if place != tc.place || pos != tc.pos {
			t.Errorf("ParseLocation(%q) = %q, %+v; want %q, %+v", tc.loc, place, pos, tc.place, tc.pos)
		}
	}
}

// TestPositionLines: the lines a position touches; an end at column 1 of
// a later line (an exclusive end) stops on the line before.
func TestPositionLines(t *testing.T) {
	for _, tc := range []struct {
		pos        agc.Position
		start, end int
	}{
		{agc.Position{}, 0, 0},
		{agc.Position{Line: 3}, 3, 3},
		{agc.Position{Line: 3, EndLine: 5}, 3, 5},
		{agc.Position{Line: 3, Column: 1, EndLine: 5, EndColumn: 1}, 3, 4},
		{agc.Position{Line: 3, Column: 4, EndLine: 3, EndColumn: 9}, 3, 3},
	} {
		if s, e := tc.pos.Lines(); s != tc.start || e != tc.end {
			t.Errorf("%+v.Lines() = %d, %d; want %d, %d", tc.pos, s, e, tc.start, tc.end)
		}
	}
}

// TestColumns: a column in UTF-8 bytes and in UTF-16 code units, both ways.
func TestColumns(t *testing.T) {
	line := []byte("const 𐐀x = \"é\";") // 𐐀: 4 bytes, 2 units; é: 2 bytes, 1 unit
	for _, tc := range []struct{ bytes, units int }{
		{1, 1}, {7, 7}, {11, 9}, {12, 10}, {16, 14}, {18, 15}, {19, 16}, {20, 17}, {25, 22},
	} {
		if got := agc.UTF16Column(line, tc.bytes); got != tc.units {
			t.Errorf("UTF16Column(%d) = %d, want %d", tc.bytes, got, tc.units)
		}
		if got := agc.ByteColumn(line, tc.units); got != tc.bytes {
			t.Errorf("ByteColumn(%d) = %d, want %d", tc.units, got, tc.bytes)
		}
	}
}
