package sarif

import (
	"compress/gzip"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// noise is n incompressible bytes (xorshift), the same on every call; from
// 0x80 on every byte is at least 0x80, which a fixed Huffman block codes in
// 9 bits.
func noise(n int, high bool) []byte {
	data := make([]byte, n)
	x := uint64(88172645463325252)
	for i := range data {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		data[i] = byte(x)
		if high {
			data[i] |= 0x80
		}
	}
	return data
}

// TestGzipBoundHolds: no level of compress/gzip writes more than
// gzipBound of incompressible data, at block boundaries too.
func TestGzipBoundHolds(t *testing.T) {
	for _, n := range []int{0, 1, 100, 65535, 65536, 3*65535 + 7, 1 << 20} {
		for _, high := range []bool{false, true} {
			data := noise(n, high)
			for _, level := range []int{gzip.NoCompression, gzip.HuffmanOnly, gzip.BestSpeed, gzip.DefaultCompression, gzip.BestCompression} {
				got, err := gzipSize(data, level)
				if err != nil {
					t.Fatal(err)
				}
				if got > int64(gzipBound(n)) {
					t.Errorf("%d bytes (high %v) at level %d: %d gzipped, over the bound %d", n, high, level, got, gzipBound(n))
				}
			}
		}
	}
}

// TestCheckSizeBoundaries: incompressible data just under and just over
// the limit, gzipped at the default level as the upload does, and at the
// largest size that needs no compression; compressible data far over the
// limit before compression.
func TestCheckSizeBoundaries(t *testing.T) {
	// The largest n whose bound is within the limit: accepted unread.
	n := MaxGzippedBytes * 64 / 73
	for gzipBound(n+1) <= MaxGzippedBytes {
		n++
	}
	for gzipBound(n) > MaxGzippedBytes {
		n--
	}
	if err := CheckSize(noise(n, true)); err != nil {
		t.Errorf("%d incompressible bytes, within the bound: %v", n, err)
	}

	// Find the length whose default-level gzip is exactly the limit.
	all := noise(MaxGzippedBytes+1<<16, false)
	size := func(n int) int64 {
		s, err := gzipSize(all[:n], gzip.DefaultCompression)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	n = MaxGzippedBytes - 1024
	for range 8 {
		s := size(n)
		if s == MaxGzippedBytes && size(n+1) > MaxGzippedBytes {
			break
		}
		n += int(MaxGzippedBytes - s)
		if s == MaxGzippedBytes {
			n++
		}
	}
	if size(n) != MaxGzippedBytes {
		t.Fatalf("no length gzips to exactly %d bytes near %d", MaxGzippedBytes, n)
	}
	if err := CheckSize(all[:n]); err != nil {
		t.Errorf("%d bytes, exactly the limit gzipped: %v", n, err)
	}
	over := n + 1
	for size(over) == MaxGzippedBytes {
		over++
	}
	err := CheckSize(all[:over])
	var le *LimitError
	if !errors.As(err, &le) || le.Count != int(size(over)) || le.Max != MaxGzippedBytes ||
		err.Error() != fmt.Sprintf("%d bytes gzipped, GitHub accepts at most %d", size(over), MaxGzippedBytes) {
		t.Errorf("%d bytes, %d gzipped: CheckSize = %v", over, size(over), err)
	}

	if err := CheckSize([]byte(strings.Repeat("a", 1<<20))); err != nil {
		t.Errorf("compressible MiB refused: %v", err)
	}
	// Compressible text five times the limit: accepted.
	var b strings.Builder
	for i := 0; b.Len() < 5*MaxGzippedBytes; i++ {
		fmt.Fprintf(&b, `{"ruleId":"BL%03d","message":{"text":"Result %d breaks rule %d."},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/f%04d.go"},"region":{"startLine":%d}}}]},`, i%50, i, i%50, i%2000, i/2000+1)
	}
	if err := CheckSize([]byte(b.String())); err != nil {
		t.Errorf("%d bytes of compressible text: %v", b.Len(), err)
	}
}

// TestCheckSizeWordsFastLevelMisleads is the case that refutes a shortcut
// through gzip's fastest level: short random words from a small dictionary
// gzip at the default level to more than 8/7 of what BestSpeed makes of
// them (about 1.3 times here; words of letters and digits, which a
// finding's text holds as they are, reach 1.15 to 1.3). 14 MB of them fit
// the limit at BestSpeed with an eighth to spare and are over it at the
// default level, which the upload sends; CheckSize must refuse them.
func TestCheckSizeWordsFastLevelMisleads(t *testing.T) {
	x := uint64(88172645463325252)
	next := func() uint64 { x ^= x << 13; x ^= x >> 7; x ^= x << 17; return x }
	words := make([]string, 2048)
	for i := range words {
		w := make([]byte, 4)
		for j := range w {
			w[j] = byte(next())
		}
		words[i] = string(w)
	}
	data := make([]byte, 0, 14_000_000)
	for len(data) < cap(data) {
		data = append(data, words[next()%uint64(len(words))]...)
	}
	fast, err := gzipSize(data, gzip.BestSpeed)
	if err != nil {
		t.Fatal(err)
	}
	def, err := gzipSize(data, gzip.DefaultCompression)
	if err != nil {
		t.Fatal(err)
	}
	if fast > MaxGzippedBytes-MaxGzippedBytes/8 || def <= MaxGzippedBytes {
		t.Fatalf("the words no longer make the case: %d bytes at BestSpeed, %d at the default level", fast, def)
	}
	var le *LimitError
	if err := CheckSize(data); !errors.As(err, &le) || le.Count != int(def) {
		t.Errorf("%d bytes, %d gzipped at the default level (%d at BestSpeed): CheckSize = %v", len(data), def, fast, err)
	}
}
