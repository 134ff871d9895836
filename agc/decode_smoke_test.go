package agc

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDecodeValidFixtures(t *testing.T) {
	files, _ := filepath.Glob("../fixtures/agc/valid/*.json")
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Decode(f, data, Limits{})
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if r.AGC != Version {
			t.Errorf("%s: agc = %q", f, r.AGC)
		}
	}
}
