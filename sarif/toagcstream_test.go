package sarif_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/sarif"
)

// TestWrittenIsEncoded: a log of one run read to a file (Options.Out) is
// written as agc.Encode writes the response Read gives without Out, with
// the same lints: when findings share an id, when there are none, when the
// run was written by FromAGC (restored whole), after text already in the
// file.
func TestWrittenIsEncoded(t *testing.T) {
	same := `{"ruleId":"R","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.go"},"region":{"startLine":3}}}]}`
	logs := map[string][]byte{
		"ids shared":  []byte(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"results":[` + same + `,` + same + `,` + same + `]}]}`),
		"no findings": []byte(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"results":[{"ruleId":"R","kind":"pass","message":{"text":"m"}}]}]}`),
		"no results":  []byte(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}}}]}`),
		"bench":       benchLog(3000, 200),
	}
	back, err := os.ReadFile(filepath.Join("testdata", "block-patch.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	logs["restored"] = back
	for name, data := range logs {
		for _, level := range []string{"", "note"} {
			want, err := sarif.Read(data, name, sarif.Options{FailLevel: level})
			if err != nil {
				t.Fatal(err)
			}
			if len(want.Responses) != 1 {
				continue // several runs: not written to Out
			}
			text, err := agc.Encode(want.Responses[0])
			if err != nil {
				t.Fatal(err)
			}
			f, err := os.Create(filepath.Join(t.TempDir(), "out.agc.json"))
			if err != nil {
				t.Fatal(err)
			}
			prefix := []byte("already here\n")
			f.Write(prefix)
			got, err := sarif.Read(data, name, sarif.Options{FailLevel: level, Out: f})
			f.Close()
			if err != nil || !got.Written {
				t.Fatalf("%s: not written: %v", name, err)
			}
			out, err := os.ReadFile(f.Name())
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, append(prefix, text...)) {
				t.Errorf("%s, level %q: written\n%.600s\nwant\n%.600s", name, level, out, text)
			}
			if got.Responses[0].Verdict != want.Responses[0].Verdict || !reflect.DeepEqual(got.Lints, want.Lints) {
				t.Errorf("%s: verdict %s, lints %v; want %s, %v", name, got.Responses[0].Verdict, got.Lints, want.Responses[0].Verdict, want.Lints)
			}
		}
	}
}
