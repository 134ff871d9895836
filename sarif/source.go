package sarif

import (
	"bytes"
	"io"
	"io/fs"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/agcgate/agc-action/textedit"
)

// maxSourceBytes bounds one source file read to resolve lines.
const maxSourceBytes = 64 << 20

// Source reads files under a source root to resolve lines, region text and
// GitHub's line hashes. Files are read once and cached. A nil fs.FS is a
// root with no files. Paths are slash-separated and relative (fs.ValidPath);
// nothing outside the root can be named.
type Source struct {
	fsys  fs.FS
	files map[string]*srcFile
	// texts is what is left for the region text Text hands out: a fix
	// names its bytes by coordinates, so a small log could otherwise name
	// a large file once for each of its results.
	texts textedit.Budget
}

type srcFile struct {
	data   []byte
	starts []int // byte offset of each line's first byte
	hashes []string
	units  []uint16 // data in UTF-16, made when a region first needs it
	ascii  []uint8  // by line: 0 not known yet, 1 ASCII, 2 not
}

// NewSource returns a Source over fsys, typically os.DirFS(root).
func NewSource(fsys fs.FS) *Source {
	return &Source{fsys: fsys, files: map[string]*srcFile{}}
}

func (s *Source) file(path string) *srcFile {
	if s == nil || s.fsys == nil || !fs.ValidPath(path) {
		return nil
	}
	if f, ok := s.files[path]; ok {
		return f
	}
	var f *srcFile
	if data, ok := readBounded(s.fsys, path); ok {
		f = &srcFile{data: data, starts: lineStarts(data)}
	}
	s.files[path] = f
	return f
}

func readBounded(fsys fs.FS, path string) ([]byte, bool) {
	fh, err := fsys.Open(path)
	if err != nil {
		return nil, false
	}
	defer fh.Close()
	if st, err := fh.Stat(); err != nil || st.IsDir() {
		return nil, false
	}
	data, err := io.ReadAll(io.LimitReader(fh, maxSourceBytes+1))
	if err != nil || len(data) > maxSourceBytes {
		return nil, false
	}
	return data, true
}

// lineStarts splits at LF, CRLF and CR, as SARIF (§3.30.4) and GitHub do.
func lineStarts(data []byte) []int {
	starts := []int{0}
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '\n':
			starts = append(starts, i+1)
		case '\r':
			if i+1 < len(data) && data[i+1] == '\n' {
				i++
			}
			starts = append(starts, i+1)
		}
	}
	return starts
}

// Exists reports whether path names a readable file under the root.
func (s *Source) Exists(path string) bool { return s.file(path) != nil }

// Line returns line n (1-based) of path without its line break.
func (s *Source) Line(path string, n int) (string, bool) {
	f := s.file(path)
	if f == nil || n < 1 || n > len(f.starts) {
		return "", false
	}
	return string(f.line(n)), true
}

func (f *srcFile) line(n int) []byte {
	end := len(f.data)
	if n < len(f.starts) {
		end = f.starts[n]
	}
	return bytes.TrimRight(f.data[f.starts[n-1]:end], "\r\n")
}

// LineHash returns GitHub's primaryLocationLineHash of line n of path.
func (s *Source) LineHash(path string, n int) (string, bool) {
	f := s.file(path)
	if f == nil || n < 1 {
		return "", false
	}
	if f.hashes == nil {
		f.hashes = LineHash(f.data)
	}
	if n > len(f.hashes) {
		return "", false
	}
	return f.hashes[n-1], true
}

// Find locates the first occurrence of text in path and returns its region
// (columns in UTF-16 code units, end exclusive, §3.30.5).
func (s *Source) Find(path, text string) (Region, bool) {
	f := s.file(path)
	if f == nil || text == "" {
		return Region{}, false
	}
	i := bytes.Index(f.data, []byte(text))
	if i < 0 {
		return Region{}, false
	}
	return f.span(i, i+len(text)), true
}

// FindSymbol locates the first whole-word occurrence of sym in path.
func (s *Source) FindSymbol(path, sym string) (Region, bool) {
	f := s.file(path)
	if f == nil || sym == "" {
		return Region{}, false
	}
	for from := 0; from < len(f.data); {
		i := bytes.Index(f.data[from:], []byte(sym))
		if i < 0 {
			return Region{}, false
		}
		i += from
		end := i + len(sym)
		if !wordByteAt(f.data, i-1) && !wordByteAt(f.data, end) {
			return f.span(i, end), true
		}
		from = i + 1
	}
	return Region{}, false
}

func wordByteAt(data []byte, i int) bool {
	if i < 0 || i >= len(data) {
		return false
	}
	c := data[i]
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// span is the region of bytes [start, end).
func (f *srcFile) span(start, end int) Region {
	sl, sc := f.position(start)
	el, ec := f.position(end)
	return Region{StartLine: sl, StartColumn: sc, EndLine: el, EndColumn: ec, CharOffset: -1}
}

// position is the 1-based line and UTF-16 column of byte offset off.
func (f *srcFile) position(off int) (int, int) {
	lo, hi := 0, len(f.starts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if f.starts[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo + 1, utf16Len(f.data[f.starts[lo]:off]) + 1
}

func utf16Len(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		n += max(utf16.RuneLen(r), 1) // 2 for a surrogate pair; U+FFFD for bad bytes
	}
	return n
}

// Text returns the text a region covers: line/column form (§3.30.2) with
// UTF-16 columns, an absent endColumn meaning the end of the line without
// its break; or charOffset/charLength in UTF-16 code units.
func (s *Source) Text(path string, r Region) (string, bool) {
	f := s.file(path)
	if f == nil {
		return "", false
	}
	if r.StartLine == 0 {
		if r.CharOffset < 0 {
			return "", false
		}
		if f.units == nil {
			f.units = utf16.Encode([]rune(string(f.data))) // once a file, not once a region
		}
		units := f.units
		if r.CharLength < 0 || r.CharOffset+r.CharLength > len(units) || !s.texts.Take(r.CharLength) {
			return "", false
		}
		out := string(utf16.Decode(units[r.CharOffset : r.CharOffset+r.CharLength]))
		if !s.texts.Take(len(out) - r.CharLength) {
			return "", false
		}
		return out, true
	}
	if r.StartLine > len(f.starts) {
		return "", false
	}
	start, ok := f.offset(r.StartLine, max(r.StartColumn, 1))
	if !ok {
		return "", false
	}
	endLine := max(r.EndLine, r.StartLine)
	if endLine > len(f.starts) {
		return "", false
	}
	var end int
	if r.EndColumn == 0 {
		end = f.starts[endLine-1] + len(f.line(endLine))
	} else if end, ok = f.offset(endLine, r.EndColumn); !ok {
		return "", false
	}
	if end < start || !s.texts.Take(end-start) {
		return "", false
	}
	return string(f.data[start:end]), true
}

// offset is the byte offset of UTF-16 column col (1-based) of line n; the
// column just after the line's end is allowed.
func (f *srcFile) offset(n, col int) (int, bool) {
	line := f.line(n)
	if f.isASCII(n, line) {
		// One unit a byte: no need to walk a long (minified) line for
		// each region on it.
		if col < 1 || col-1 > len(line) {
			return 0, false
		}
		return f.starts[n-1] + col - 1, true
	}
	units := 0
	for i := 0; ; {
		if units == col-1 {
			return f.starts[n-1] + i, true
		}
		if i >= len(line) || units > col-1 {
			return 0, false
		}
		r, size := utf8.DecodeRune(line[i:])
		i += size
		units += max(utf16.RuneLen(r), 1)
	}
}

// isASCII reports whether line n, its bytes line, is all ASCII, reading
// it once.
func (f *srcFile) isASCII(n int, line []byte) bool {
	if f.ascii == nil {
		f.ascii = make([]uint8, len(f.starts))
	}
	if f.ascii[n-1] == 0 {
		f.ascii[n-1] = 1
		for _, b := range line {
			if b >= utf8.RuneSelf {
				f.ascii[n-1] = 2
				break
			}
		}
	}
	return f.ascii[n-1] == 1
}

// trimLine is a line's content with surrounding white space removed, the
// identity of a result when the log gives nothing better.
func trimLine(s string) string { return strings.TrimSpace(s) }
