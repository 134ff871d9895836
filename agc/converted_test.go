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
