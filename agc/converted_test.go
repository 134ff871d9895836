package agc

import "testing"

// TestNewResponse: a converted response starts as a deterministic gate's
// first attempt on a commit, allowing, with a budget above 1 (§10 forbids
// block at n == budget).
func TestNewResponse(t *testing.T) {
	r := NewResponse("lint", "sha256:ab")
	if r.AGC != Version || r.Gate.ID != "lint" || r.Gate.Kind != Deterministic ||
		r.Subject.Kind != SubjectCommit || r.Subject.Fingerprint != "sha256:ab" ||
		r.Attempt.N != 1 || r.Attempt.Budget != ConvertedBudget || ConvertedBudget <= 1 || r.Verdict != Allow {
		t.Errorf("NewResponse = %+v", r)
	}
}

func TestFindingIDsUnique(t *testing.T) {
	ids := FindingIDs{}
	var got []string
	for _, id := range []string{"x", "y", "x", "x"} {
		got = append(got, ids.Unique(id))
	}
	want := []string{"x", "y", "x~2", "x~3"}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Unique ids = %q, want %q", got, want)
		}
	}
}

// TestFindingIDsNeverRepeat: an id that already looks numbered (a source
// that names a finding x~2) is checked against the numbers handed out, so
// one response never holds two findings with one id (§7).
func TestFindingIDsNeverRepeat(t *testing.T) {
	for _, in := range [][]string{
		{"x", "x", "x~2"},
		{"x~2", "x", "x"},
		{"x", "x~2", "x", "x", "x~3", "x~2"},
		{"a", "a~2", "a~2", "a", "a", "a~2~2"},
	} {
		ids := FindingIDs{}
		seen := map[string]bool{}
		for _, id := range in {
			u := ids.Unique(id)
			if seen[u] {
				t.Errorf("%q: id %q handed out twice", in, u)
			}
			seen[u] = true
		}
	}
}
