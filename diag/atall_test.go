package diag

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// nc is a ScanCounter that counts nothing: the placing functions are its
// methods on nil.
var nc *ScanCounter

// atEach is what placing many offsets cost before AtAll: At for each.
func atEach(src []byte, offs []int64) []Place {
	out := make([]Place, len(offs))
	for i, off := range offs {
		out[i] = At(src, off)
	}
	return out
}

// TestAtAllIsAt: AtAll gives each offset the Place At gives it, byte for
// byte, in any order, with repeats, negative offsets and offsets past the
// end, on sources with and without line breaks at their edges.
func TestAtAllIsAt(t *testing.T) {
	srcs := []string{
		"",
		"\n",
		"\n\n\n",
		"abc",
		"{\n  \"a\": 1,\n  \"é\": x\n}",
		"\r\nx\r\n\r\ny",
		"no break at the end\nsecond line",
		"ends with a break\n",
	}
	for _, s := range srcs {
		src := []byte(s)
		var offs []int64
		for off := int64(-2); off <= int64(len(src))+2; off++ {
			offs = append(offs, off)
		}
		// Backwards, and every offset again, shuffled by a stride.
		for i := len(offs) - 1; i >= 0; i-- {
			offs = append(offs, offs[i])
		}
		for i := range len(src) + 5 {
			offs = append(offs, int64((i*7)%(len(src)+3)))
		}
		if d := cmp.Diff(atEach(src, offs), nc.AtAll(src, offs)); d != "" {
			t.Errorf("AtAll(%q) (-At +AtAll):\n%s", s, d)
		}
	}
	if got := nc.AtAll([]byte("x"), nil); len(got) != 0 {
		t.Errorf("AtAll of no offsets = %v", got)
	}
}

// FuzzAtAll: for any source and offsets, AtAll is At of each.
func FuzzAtAll(f *testing.F) {
	f.Add([]byte("{\n  \"a\": 1\n}\n"), []byte{3, 0, 200, 12, 12, 1})
	f.Add([]byte("\n\n"), []byte{2, 1, 0})
	f.Add([]byte(""), []byte{0, 255})
	f.Fuzz(func(t *testing.T, src, raw []byte) {
		offs := make([]int64, len(raw))
		for i, b := range raw {
			offs[i] = int64(b) - 8 // some negative, some past the end
		}
		if d := cmp.Diff(atEach(src, offs), nc.AtAll(src, offs)); d != "" {
			t.Fatalf("AtAll(%q, %v) (-At +AtAll):\n%s", src, offs, d)
		}
		c := nc.NewCursor(src) // in the given order, some going back
		for _, off := range offs {
			if got, want := c.At(off), At(src, off); got != want {
				t.Fatalf("Cursor.At(%d) of %q = %+v, want %+v", off, src, got, want)
			}
		}
	})
}

// manyResults is a SARIF log of n results {} on one line each, and the
// pointers of the two lints each result draws.
func manyResults(n int) ([]byte, []*Place) {
	var b bytes.Buffer
	b.WriteString(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"t"}},"results":[` + "\n")
	places := make([]*Place, 0, 2*n)
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString("{}")
		p := fmt.Sprintf("/runs/0/results/%d", i)
		places = append(places, &Place{Pointer: p + "/ruleId"}, &Place{Pointer: p + "/message"})
	}
	b.WriteString("\n]}]}\n")
	return b.Bytes(), places
}

// TestLocateReadsOnce is the attack of a log whose every result draws a
// lint: placing its lints must read the log a bounded number of times,
// not once for each lint (At from the start of the file for each place
// read 5,000 lints × half of the log). Bytes are counted, not time.
func TestLocateReadsOnce(t *testing.T) {
	src, places := manyResults(5000)
	var scans ScanCounter
	scans.Locate(src, places...)
	read := scans.Bytes()
	// One walk to find the values the pointers name, one pass to count
	// the lines before them.
	if read > 2*int64(len(src)) {
		t.Errorf("placing %d lints in %d bytes read %d bytes of it (%.0f times the source); want at most two passes", len(places), len(src), read, float64(read)/float64(len(src)))
	}
	for i, p := range places {
		want := At(src, p.Offset)
		if p.Line != want.Line || p.Column != want.Column || p.Line != i/2+2 {
			t.Fatalf("place %d of %s = %d:%d, want line %d", i, p.Pointer, p.Line, p.Column, i/2+2)
		}
	}
}

// BenchmarkLocateMany places two lints for each result of logs of a few
// sizes: the time per lint stays flat as the log grows.
func BenchmarkLocateMany(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		src, places := manyResults(n)
		b.Run(fmt.Sprintf("results=%d/bytes=%d", n, len(src)), func(b *testing.B) {
			for b.Loop() {
				for _, p := range places {
					p.Line = 0
				}
				Locate(src, places...)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(places)), "ns/lint")
		})
	}
}

// TestLineOffsetsIsLineOffset: LineOffsets gives each line what
// LineOffset gives it, in any order, reading data once.
func TestLineOffsetsIsLineOffset(t *testing.T) {
	for _, s := range []string{"", "\n", "a\nbc\n", "a\nbc", "\n\n\nx\n\n"} {
		data := []byte(s)
		var lines []int
		for n := 8; n >= -1; n-- {
			lines = append(lines, n, (n*5)%9)
		}
		want := make([]int, len(lines))
		for i, n := range lines {
			off, ok := nc.LineOffset(data, n)
			want[i] = off
			if !ok {
				want[i] = -1
			}
		}
		if d := cmp.Diff(want, nc.LineOffsets(data, lines)); d != "" {
			t.Errorf("LineOffsets(%q, %v) (-LineOffset +LineOffsets):\n%s", s, lines, d)
		}
	}
}

// FuzzLineOffsets: for any data and lines, LineOffsets is LineOffset of each.
func FuzzLineOffsets(f *testing.F) {
	f.Add([]byte("a\nbc\n"), []byte{3, 1, 2, 9})
	f.Fuzz(func(t *testing.T, data, raw []byte) {
		lines := make([]int, len(raw))
		for i, b := range raw {
			lines[i] = int(b) - 2
		}
		got := nc.LineOffsets(data, lines)
		for i, n := range lines {
			off, ok := nc.LineOffset(data, n)
			if !ok {
				off = -1
			}
			if got[i] != off {
				t.Fatalf("LineOffsets(%q)[line %d] = %d, LineOffset %d", data, n, got[i], off)
			}
		}
	})
}
