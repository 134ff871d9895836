package sarif_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	gosarif "github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/agcgate/agc-action/internal/golden"
)

// TestWrittenLogsAreGoSARIF reads every log the writer's goldens hold with
// go-sarif, a SARIF 2.1.0 model no one here wrote, and writes it again:
// nothing the writer wrote is unknown to it or lost on the way.
func TestWrittenLogsAreGoSARIF(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "write", "*.sarif"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no written logs in testdata/write: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := gosarif.FromBytes(data)
			if err != nil {
				t.Fatalf("go-sarif cannot read it: %v", err)
			}
			again, err := json.Marshal(rep)
			if err != nil {
				t.Fatal(err)
			}
			diff, err := golden.JSONDiff(data, again)
			if err != nil {
				t.Fatal(err)
			}
			if diff != "" {
				t.Errorf("go-sarif does not keep what was written (-written +go-sarif):\n%s", diff)
			}
		})
	}
}
