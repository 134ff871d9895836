package sarif

import (
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Vectors published with upload-sarif's own tests (codeql-action
// src/fingerprints.test.ts) and its end-to-end fixture
// (src/testdata/testFile1.js, testFile2.js with the hashes recorded in
// /work/shared/sarif-corpus/codeql-codeql-action-fingerprinting.sarif).
func TestLineHashPublishedVectors(t *testing.T) {
	end := []string{"e9496ae3ebfced30:1", "fb7c023a8b9ccb3f:1", "ce8ba1a563dcdaca:1", "e20e36e16fcb0cc8:1",
		"b3edc88f2938467e:1", "c8e28b0b4002a3a0:1", "c129715d7a2bc9a3:1"}
	tests := []struct {
		name, in string
		want     []string
	}{
		{"empty", "", []string{"c129715d7a2bc9a3:1"}},
		{"blanks", " a\nb\n  \t\tc\n d", []string{"271789c17abda88f:1", "54703d4cd895b18:1", "180aee12dab6264:1", "a23a3dc5e078b07b:1"}},
		{"no final newline", " hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End",
			[]string{"8b7cf3e952e7aeb2:1", "b1ae1287ec4718d9:1", "bff680108adb0fcc:1", "c6805c5e1288b612:1", "b86d3392aea1be30:1", "e6ceba753e1a442:1"}},
		{"LF", " hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End\n", end},
		{"CR", " hello; \t\nworld!!!\r\r\r  \t\tGreetings\r End\r", end},
		{"CRLF", " hello; \t\r\nworld!!!\r\n\r\n\r\n  \t\tGreetings\r\n End\r\n", end},
		{"mixed", " hello; \t\nworld!!!\r\n\n\r  \t\tGreetings\r End\r\n", end},
		{"repeated", strings.Repeat("Lorem ipsum dolor sit amet.\n", 10), []string{
			"a7f2ff13bc495cf2:1", "a7f2ff13bc495cf2:2", "a7f2ff13bc495cf2:3", "a7f2ff13bc495cf2:4",
			"a7f2ff13bc495cf2:5", "a7f2ff13bc495cf2:6", "a7f2ff1481e87703:1", "a9cf91f7bbf1862b:1",
			"55ec222b86bcae53:1", "cc97dc7b1d7d8f7b:1", "c129715d7a2bc9a3:1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, LineHash([]byte(tt.in))); diff != "" {
				t.Errorf("LineHash(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestLineHashCorpusFixture(t *testing.T) {
	// codeql-codeql-action-fingerprinting.sarif: testFile1.js line 1 and
	// testFile2.js line 2.
	if got := LineHash([]byte("var a = 0;\nvar b = 0;\nvar c = 0;\nvar d = 0;\n"))[0]; got != "5e4d5a9cf1294ad9:1" {
		t.Errorf("testFile1.js line 1 = %s, want 5e4d5a9cf1294ad9:1", got)
	}
	if got := LineHash([]byte("var foo = 0;\nvar bar = 0;\nvar baz = 0;\nvar qux = 0;\n"))[1]; got != "f7592a95a9381ac0:1" {
		t.Errorf("testFile2.js line 2 = %s, want f7592a95a9381ac0:1", got)
	}
}

// polyHash is the hash by its definition rather than as a rolling window:
// the sum of c_i * 37^(99-i) over the 100 kept characters that start at the
// line, modulo 2^64, with 65535 and then zeros after the end of the file.
func polyHash(units []uint64, from int) uint64 {
	mod := new(big.Int).Lsh(big.NewInt(1), 64)
	sum := new(big.Int)
	for i := range hashBlock {
		c := uint64(0)
		switch {
		case from+i < len(units):
			c = units[from+i]
		case from+i == len(units):
			c = hashEOF
		}
		term := new(big.Int).Exp(big.NewInt(hashMod), big.NewInt(int64(hashBlock-1-i)), mod)
		term.Mul(term, new(big.Int).SetUint64(c))
		sum.Add(sum, term)
	}
	return sum.Mod(sum, mod).Uint64()
}

// TestLineHashByDefinition checks the rolling hash against the direct sum
// for inputs that exercise long lines, surrogate pairs, tabs and CRLF.
func TestLineHashByDefinition(t *testing.T) {
	inputs := []string{
		"x",
		"a\n",
		"\tfunc main() {\r\n\t\tfmt.Println(\"héllo 😀\")\r\n}\r\n",
		strings.Repeat("0123456789", 25) + "\nshort\n" + strings.Repeat("z", 150),
	}
	for _, in := range inputs {
		var units []uint64
		var starts []int
		start, prevCR := true, false
		for _, r := range in {
			var cs []uint64
			if r >= 0x10000 {
				cs = []uint64{uint64(0xD800 + ((r - 0x10000) >> 10)), uint64(0xDC00 + ((r - 0x10000) & 0x3FF))}
			} else {
				cs = []uint64{uint64(r)}
			}
			for _, c := range cs {
				if c == ' ' || c == '\t' || (prevCR && c == '\n') {
					prevCR = false
					continue
				}
				prevCR = c == '\r'
				if c == '\r' {
					c = '\n'
				}
				if start {
					starts = append(starts, len(units))
					start = false
				}
				if c == '\n' {
					start = true
				}
				units = append(units, c)
			}
		}
		if start {
			starts = append(starts, len(units))
		}
		got := LineHash([]byte(in))
		if len(got) != len(starts) {
			t.Fatalf("LineHash(%q) gave %d lines, want %d", in, len(got), len(starts))
		}
		seen := map[uint64]int{}
		for i, s := range starts {
			h := polyHash(units, s)
			seen[h]++
			if want := fmt.Sprintf("%x:%d", h, seen[h]); got[i] != want {
				t.Errorf("LineHash(%q) line %d = %s, want %s", in, i+1, got[i], want)
			}
		}
	}
}
