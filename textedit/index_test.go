package textedit

import (
	"bytes"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
)

// onceRef is Once as it was before Index: it reads the whole file.
func onceRef(data, find []byte) bool {
	i := bytes.Index(data, find)
	return i >= 0 && !bytes.Contains(data[i+1:], find)
}

// uniqueRef is Unique by an Index that never builds its suffix array:
// each find reads the whole file, as before Index.
func uniqueRef(path string, data []byte, start, end int, text string) (agc.Edit, bool) {
	return (&Index{data: data, finds: math.MinInt / 2}).Unique(path, start, end, text)
}

// checkIndex asks one Index of data every find, first by reading and,
// past scansBeforeIndex, through the suffix array, and compares each
// answer with the old functions'.
func checkIndex(t *testing.T, data []byte, finds [][]byte, ranges [][2]int) {
	t.Helper()
	x := NewIndex(data, nil)
	for _, f := range finds {
		want := len(f) > 0 && onceRef(data, f) // the old Once panics on an empty find in an empty file
		at, got := x.Find(f)
		if got != want || got && at != bytes.Index(data, f) {
			t.Fatalf("%q in %q: Find %d, %v; want %v at %d", f, data, at, got, want, bytes.Index(data, f))
		}
	}
	y := NewIndex(data, nil)
	for _, r := range ranges {
		we, wok := uniqueRef("p", data, r[0], r[1], "T")
		ge, gok := y.Unique("p", r[0], r[1], "T")
		if gok != wok || !reflect.DeepEqual(ge, we) {
			t.Fatalf("%q [%d:%d]: Unique %+v, %v; want %+v, %v", data, r[0], r[1], ge, gok, we, wok)
		}
	}
	if x.finds > scansBeforeIndex && x.sa == nil {
		t.Fatal("no index was built")
	}
}

// TestIndexIsOnce: on many files of a small alphabet, where finds repeat
// and overlap ("aa" in "aaa"), an Index gives Once's and Unique's answers
// for every substring, whether it reads the file or its suffix array.
func TestIndexIsOnce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		data := make([]byte, rng.IntN(40))
		for i := range data {
			data[i] = "ab\n"[rng.IntN(3)]
		}
		var finds [][]byte
		var ranges [][2]int
		for s := 0; s <= len(data); s++ {
			for e := s; e <= len(data); e++ {
				finds = append(finds, data[s:e])
				ranges = append(ranges, [2]int{s, e})
			}
		}
		finds = append(finds, []byte("aba"), []byte("x"), []byte("\n\n"), append(bytes.Clone(data), 'a'))
		ranges = append(ranges, [2]int{-1, 0}, [2]int{0, len(data) + 1}, [2]int{1, 0})
		checkIndex(t, data, finds, ranges)
	}
	for _, tt := range []struct{ data, find string }{
		{"aaa", "aa"},     // overlapping: twice
		{"aXa", "a"},      // twice, apart
		{"abab", "bab"},   // once
		{"ababa", "aba"},  // overlapping: twice
		{"", "a"},         // no file
		{"a\na\n", "a\n"}, // two lines
	} {
		finds := make([][]byte, scansBeforeIndex+2)
		for i := range finds {
			finds[i] = []byte(tt.find)
		}
		checkIndex(t, []byte(tt.data), finds, nil)
	}
}

// FuzzIndex: for any file and any finds, an Index agrees with Once and
// Unique as they were.
func FuzzIndex(f *testing.F) {
	f.Add([]byte("a := 1\nb := 1\nif x {\n\treturn\n}\nif x {\n\treturn\n}\n"), []byte("1\n"), uint16(5), uint16(6))
	f.Add([]byte("aaaa"), []byte("aa"), uint16(1), uint16(3))
	f.Fuzz(func(t *testing.T, data, find []byte, s, e uint16) {
		a, b := min(int(s), int(e), len(data)), min(max(int(s), int(e)), len(data))
		finds := [][]byte{find}
		for i := 0; i <= scansBeforeIndex; i++ {
			finds = append(finds, find, data[a:b])
		}
		ranges := [][2]int{{int(s), int(e)}}
		for i := 0; i <= scansBeforeIndex && len(data) > 0; i++ {
			ranges = append(ranges, [2]int{int(s) % len(data), int(s)%len(data) + int(e)%(len(data)-int(s)%len(data)+1)})
		}
		checkIndex(t, data, finds, ranges)
	})
}

// TestUniqueContextBounded is the attack of suggestions on one long line
// (a minified file) whose replaced bytes occur again: each find text was
// widened to the whole line, a megabyte for a suggestion of ten bytes.
// The context around the replaced bytes is bounded; past it the edit is
// given up, and a find that is unique within it is still made.
func TestUniqueContextBounded(t *testing.T) {
	line := strings.Repeat("x = f(1); ", 100000) // 1 MB, "f(1)" everywhere
	data := []byte(line + "\n")
	x := NewIndex(data, nil)
	for i := range 20 {
		start := 10*i*997 + 4
		if e, ok := x.Unique("min.js", start, start+4, "g(1)"); ok {
			t.Fatalf("suggestion %d: a find of %d bytes, want the edit given up", i, len(e.Find))
		}
	}
	short := []byte("a = f(1);\nb = f(1);\nc = 2;\n")
	e, ok := NewIndex(short, nil).Unique("s.js", 4, 8, "g(1)")
	if !ok || e.Find != "a = f(1);\n" || e.Replace != "a = g(1);\n" {
		t.Errorf("short file: %+v, %v; want the first line", e, ok)
	}
}
