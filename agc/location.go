package agc

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Position is where in a file a finding points: 1-based lines and
// columns, zero when absent. The end is the last line, and the column
// after the last character (exclusive, as SARIF's endColumn and rdjson's
// end are). Columns count UTF-16 code units, as SARIF's default and
// GitHub do (UTF16Column, ByteColumn convert from and to UTF-8 bytes).
type Position struct {
	Line, Column, EndLine, EndColumn int
}

// Normal is p as FormatLocation writes it and ParseLocation reads it back:
// nothing without a line; an end column implies an end line (the start's)
// and a start column (1); an end line no later than the start is dropped
// unless an end column needs it.
func (p Position) Normal() Position {
	if p.Line < 1 {
		return Position{}
	}
	p.Column, p.EndLine, p.EndColumn = max(p.Column, 0), max(p.EndLine, 0), max(p.EndColumn, 0)
	if p.EndColumn > 0 {
		p.EndLine = max(p.EndLine, p.Line)
		p.Column = max(p.Column, 1)
		if p.EndLine == p.Line && p.EndColumn < p.Column {
			p.EndColumn = p.Column
		}
		return p
	}
	if p.EndLine <= p.Line {
		p.EndLine = 0
	}
	return p
}

// Lines is the first and last line p touches, zeros without a line. An
// end at column 1 of a later line ends on the line before it.
func (p Position) Lines() (start, end int) {
	p = p.Normal()
	if p.Line == 0 {
		return 0, 0
	}
	end = max(p.EndLine, p.Line)
	if p.EndColumn == 1 && end > p.Line {
		end--
	}
	return p.Line, end
}

// FormatLocation is the one written form of a finding's location with a
// position (docs/convert.md, "Positions"):
//
//	PLACE                 no position
//	PLACE:LINE            one line
//	PLACE:LINE-END        lines LINE to END
//	PLACE:LINE:COL        a point
//	PLACE:LINE:COL-END    from a column to the end line
//	PLACE:LINE:COL-END:ENDCOL
//
// PLACE is what the location is without its position (a path, path#symbol,
// a field). A position without a place is not written: a bare line number
// is not a location (AGC §7).
func FormatLocation(place string, p Position) string {
	p = p.Normal()
	if place == "" || p.Line == 0 {
		return place
	}
	b := make([]byte, 0, len(place)+24)
	b = append(b, place...)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(p.Line), 10)
	if p.Column > 0 {
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(p.Column), 10)
	}
	if p.EndLine > 0 {
		b = append(b, '-')
		b = strconv.AppendInt(b, int64(p.EndLine), 10)
		if p.EndColumn > 0 {
			b = append(b, ':')
			b = strconv.AppendInt(b, int64(p.EndColumn), 10)
		}
	}
	return string(b)
}

var (
	positionSuffix = regexp.MustCompile(`^(.*?):(\d+)(?::(\d+))?(?:-(\d+)(?::(\d+))?)?$`)
	// anchorSuffix is GitHub's line anchor, read (never written) for
	// locations written by hand or by older versions.
	anchorSuffix = regexp.MustCompile(`^(.*?)#L(\d+)(?:-L?(\d+))?$`)
)

// ParseLocation splits a location into its place and position: the
// inverse of FormatLocation, also reading GitHub's anchors PLACE#L12 and
// PLACE#L12-L14. A suffix that is not a valid position (a line 0, an end
// before the start, a number too large) is part of the place. The place
// is "" only when the location is a bare position such as ":12" or "#L12".
func ParseLocation(loc string) (place string, p Position) {
	if n := len(loc); n == 0 || loc[n-1] < '0' || loc[n-1] > '9' {
		return loc, Position{} // every position ends in a digit
	}
	if m := positionSuffix.FindStringSubmatch(loc); m != nil {
		if p, ok := position(m[2], m[3], m[4], m[5]); ok {
			return m[1], p
		}
	}
	if m := anchorSuffix.FindStringSubmatch(loc); m != nil {
		if p, ok := position(m[2], "", m[3], ""); ok {
			return m[1], p
		}
	}
	return loc, Position{}
}

// position makes a Position of its parts ("" absent) when it is one that
// FormatLocation could have written.
func position(line, col, endLine, endCol string) (Position, bool) {
	var p Position
	for _, f := range []struct {
		s   string
		dst *int
	}{{line, &p.Line}, {col, &p.Column}, {endLine, &p.EndLine}, {endCol, &p.EndColumn}} {
		if f.s == "" {
			continue
		}
		n, err := strconv.Atoi(f.s)
		if err != nil || n < 1 || n > 1<<31-1 {
			return Position{}, false
		}
		*f.dst = n
	}
	if p.EndLine > 0 && p.EndLine < p.Line ||
		p.EndColumn > 0 && p.EndLine == p.Line && p.EndColumn < p.Column {
		return Position{}, false
	}
	return p.Normal(), true
}

// LocationFile is the file a location names and its position there: the
// place up to a '#' (a symbol or anchor after it is not part of the
// path), without a leading "./".
func LocationFile(loc string) (path string, p Position) {
	place, p := ParseLocation(loc)
	path, _, _ = strings.Cut(place, "#")
	return strings.TrimPrefix(path, "./"), p
}

// UTF16Column is the column in UTF-16 code units (the unit of a location's
// columns, as of SARIF and GitHub) of byte column col of line, both
// 1-based. A column past the line's end keeps its distance from it; one
// inside a character is that character's.
func UTF16Column(line []byte, col int) int {
	n, i := 1, 0
	for i < col-1 && i < len(line) {
		r, size := utf8.DecodeRune(line[i:])
		if i+size > col-1 {
			return n
		}
		n += max(utf16.RuneLen(r), 1)
		i += size
	}
	return n + max(col-1-i, 0)
}

// ByteColumn is the byte column of UTF-16 column col of line: the inverse
// of UTF16Column.
func ByteColumn(line []byte, col int) int {
	n, i := 1, 0
	for n < col && i < len(line) {
		r, size := utf8.DecodeRune(line[i:])
		w := max(utf16.RuneLen(r), 1)
		if n+w > col {
			return i + 1
		}
		n += w
		i += size
	}
	return i + 1 + max(col-n, 0)
}
