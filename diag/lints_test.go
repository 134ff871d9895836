package diag

import (
	"fmt"
	"strings"
	"testing"
)

func numbered(n int) []Lint {
	out := make([]Lint, n)
	for i := range out {
		out[i] = Lint{Place: Place{File: "f", Pointer: fmt.Sprintf("/%d", i)}, Message: "m"}
	}
	return out
}

// TestLintsBounded is the attack of an input that draws millions of lints:
// however many are added, the first MaxLints are kept, the rest counted,
// and one summary lint names how many more there were and the total.
func TestLintsBounded(t *testing.T) {
	for _, n := range []int{0, 1, MaxLints, MaxLints + 1, 3*MaxLints + 7} {
		var s Lints
		s.AddAll(numbered(n))
		got := s.List()
		if s.Len() != n || Count(got) != n {
			t.Errorf("%d lints: Len %d, Count %d", n, s.Len(), Count(got))
		}
		if n <= MaxLints {
			if len(got) != n || n > 0 && got[n-1].More != 0 {
				t.Errorf("%d lints: kept %d, want all and no summary", n, len(got))
			}
			continue
		}
		if len(got) != MaxLints+1 {
			t.Fatalf("%d lints: kept %d, want %d and a summary", n, len(got), MaxLints)
		}
		if got[MaxLints-1].Pointer != fmt.Sprintf("/%d", MaxLints-1) {
			t.Errorf("%d lints: the last kept is %v, want the %dth added", n, got[MaxLints-1], MaxLints)
		}
		sum := got[MaxLints]
		want := fmt.Sprintf("f: %d more lints not shown (%d in all); the first %d are above", n-MaxLints, n, MaxLints)
		if sum.More != n-MaxLints || sum.String() != want {
			t.Errorf("%d lints: summary %q (More %d), want %q", n, sum.String(), sum.More, want)
		}
	}
}

// TestBoundJoins: the bounded lists of two readers of one input, joined,
// are bounded again with the true total, and Bound of a bounded list is
// that list.
func TestBoundJoins(t *testing.T) {
	var a, b Lints
	a.AddAll(numbered(MaxLints + 10))
	b.AddAll(numbered(5))
	joined := Bound(append(a.List(), b.List()...))
	if len(joined) != MaxLints+1 || Count(joined) != MaxLints+15 || joined[MaxLints].More != 15 {
		t.Errorf("joined: %d lints, Count %d, summary %v", len(joined), Count(joined), joined[len(joined)-1])
	}
	again := Bound(joined)
	if len(again) != len(joined) || again[MaxLints] != joined[MaxLints] {
		t.Errorf("Bound of a bounded list changed it: %v", again[len(again)-1])
	}
	if !strings.HasPrefix(joined[MaxLints].String(), "f: 15 more lints") {
		t.Errorf("joined summary = %q", joined[MaxLints].String())
	}
}

// TestLintsReset: a reader that reads a run again forgets what the first
// read added, counted ones included.
func TestLintsReset(t *testing.T) {
	var s Lints
	s.AddAll(numbered(10))
	m := s.Mark()
	s.AddAll(numbered(2 * MaxLints))
	s.Reset(m)
	if s.Len() != 10 || len(s.List()) != 10 {
		t.Errorf("after Reset: Len %d, List %d; want 10", s.Len(), len(s.List()))
	}
	if !(&Lints{list: make([]Lint, MaxLints)}).Full() || s.Full() {
		t.Error("Full")
	}
}

// TestLocateLintsLeavesSummary: a summary is about the whole input and
// gets no line, though it names the file.
func TestLocateLintsLeavesSummary(t *testing.T) {
	ls := []Lint{{Place: Place{Pointer: "/a"}, Message: "m"}, Summary("", 3, 4)}
	LocateLints("f.json", []byte(`{"a": 1}`), ls)
	if ls[0].Line != 1 || ls[0].Column != 7 || ls[1].Line != 0 || ls[1].File != "f.json" {
		t.Errorf("LocateLints = %+v", ls)
	}
}
