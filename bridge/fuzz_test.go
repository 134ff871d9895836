package bridge

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/agcgate/agc-action/validate"
)

// seed adds every fixture (valid and malformed) of dir to the corpus.
func seed(f *testing.F, dir string) {
	for _, sub := range []string{"", "malformed"} {
		for _, path := range fixtures(f, filepath.Join(fixtureRoot, dir, sub)) {
			data, err := os.ReadFile(path)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
}

// fuzzConvert: a converter never panics, fails only with a *diag.Error, and
// whatever it answers is valid AGC that both hook answers accept (except a
// receipt's digest-only repair, which the hook must refuse).
func fuzzConvert(t *testing.T, convert convertFunc, data []byte) {
	r, _, err := convert("fuzz", data)
	if err != nil {
		var be *diag.Error
		if !errors.As(err, &be) {
			t.Fatalf("error %v is a %T, not a *diag.Error", err, err)
		}
		return
	}
	out, err := agc.Encode(r)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	if vs := validate.Bytes("fuzz", out, agc.Limits{}); validate.HasErrors(vs) {
		t.Fatalf("invalid AGC from %q:\n%v\n%s", data, vs, out)
	}
	if r.Verdict == agc.Repaired {
		return
	}
	if _, err := ClaudePreToolUse(r, ClaudeOptions{}); err != nil {
		t.Fatalf("PreToolUse: %v", err)
	}
	if _, err := ClaudePostToolUse(r, ClaudeOptions{}); err != nil {
		t.Fatalf("PostToolUse: %v", err)
	}
}

func FuzzFromAgentProtocol(f *testing.F) {
	seed(f, "agent-protocol")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzConvert(t, FromAgentProtocol, data) })
}

func FuzzFromReceipt(f *testing.F) {
	seed(f, "gate-receipt")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzConvert(t, FromReceipt, data) })
}

func FuzzFromFourgate(f *testing.F) {
	seed(f, "fourgate")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzConvert(t, FromFourgate, data) })
}
