package sarif_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/sarif"
	"github.com/agcgate/agc-action/sarif/sariftest"
	"github.com/agcgate/agc-action/validate"
)

// FuzzReadSARIF: any input is read or refused with an error, never a
// panic; what is read converts to responses the validator accepts, and to
// SARIF this package reads back.
func FuzzReadSARIF(f *testing.F) {
	for _, glob := range []string{filepath.Join(corpusDir(f), "*.sarif"), filepath.Join(sariftest.RepoRoot(f), "fixtures", "sarif", "*.sarif")} {
		files, _ := filepath.Glob(glob)
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil && len(data) <= 16<<10 {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		log, _, err := sarif.ReadLog(bytes.NewReader(data), "fuzz.sarif", sarif.ReadOptions{MaxBytes: 1 << 20, Root: "/src"})
		if err != nil {
			return
		}
		resps, _ := sarif.ToAGC(log, sarif.ToAGCOptions{})
		for _, r := range resps {
			b, err := agc.Encode(r)
			if err != nil {
				t.Fatalf("encode: %v", err)
			}
			for _, v := range validate.Bytes("fuzz.agc.json", b, agc.Limits{}) {
				if v.Severity == validate.SeverityError {
					t.Fatalf("invalid AGC from valid-enough SARIF: %s\n%s", v, b)
				}
			}
		}
		var buf bytes.Buffer
		err = sarif.Write(&buf, resps, sarif.WriteOptions{})
		out := buf.Bytes()
		if err != nil {
			t.Fatalf("Write: %v", err)
		}
		if _, _, err := sarif.ReadLog(bytes.NewReader(out), "out.sarif", sarif.ReadOptions{}); err != nil {
			t.Fatalf("our own output does not read back: %v\n%s", err, out)
		}
	})
}
