package carry

import (
	"testing"

	"github.com/agcgate/agc-action/agc"
)

func TestForward(t *testing.T) {
	prev := &agc.Response{AGC: "0.1", Verdict: agc.Block, Subject: agc.Subject{Kind: agc.SubjectCommit, Fingerprint: "sha256:aa"},
		Unknown: agc.Unknown(`{"x-a":1, "agc-action/carried-from":{"sha":"c0","fingerprint":"sha256:aa","to":"c1"},"x-b":[2]}`)}
	got, err := Forward(prev, "c1", "c2")
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"x-a":1,"x-b":[2],"agc-action/carried-from":{"sha":"c0","fingerprint":"sha256:aa","to":"c2"}}`; string(got.Unknown) != want {
		t.Errorf("Unknown = %s, want %s", got.Unknown, want)
	}
	if got.Verdict != prev.Verdict || &got.Findings == &prev.Findings {
		t.Errorf("carried response is not a copy with the same verdict")
	}
	fresh, err := Forward(&agc.Response{Subject: agc.Subject{Fingerprint: "sha256:bb"}}, "", "c9")
	if err != nil {
		t.Fatal(err)
	}
	if rec, ok, err := ReadRecord(fresh); err != nil || !ok || rec != (Record{Fingerprint: "sha256:bb", To: "c9"}) {
		t.Errorf("record %+v %v %v", rec, ok, err)
	}
	for _, bad := range []string{`[1]`, `{"agc-action/carried-from":"x"}`} {
		if _, err := Forward(&agc.Response{Unknown: agc.Unknown(bad)}, "a", "b"); err == nil {
			t.Errorf("Forward with unknown members %s: nil error", bad)
		}
	}
}
