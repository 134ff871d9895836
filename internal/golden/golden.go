// Package golden compares test output with golden files under testdata
// and rewrites them when a test runs with -update. Every package's tests
// use it, each with its own -update flag.
package golden

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"
)

// Check compares got with the file at path: by meaning when the name ends
// in .json or .sarif, line by line otherwise. With update it writes got to
// path instead (creating its directory).
func Check(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	var d string
	if isJSON(path) {
		if d, err = JSONDiff(want, got); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	} else {
		d = cmp.Diff(strings.Split(string(want), "\n"), strings.Split(string(got), "\n"))
	}
	if d != "" {
		t.Errorf("%s differs (-want +got); run with -update if the change is intended:\n%s", path, d)
	}
}

func isJSON(path string) bool {
	return strings.HasSuffix(path, ".json") || strings.HasSuffix(path, ".sarif")
}

// JSONDiff compares two JSON documents by meaning (member order and
// formatting aside) and returns their difference, "" when equal.
func JSONDiff(want, got []byte) (string, error) {
	var w, g any
	if err := json.Unmarshal(bytes.TrimSpace(want), &w); err != nil {
		return "", fmt.Errorf("golden file is not JSON: %w", err)
	}
	if err := json.Unmarshal(bytes.TrimSpace(got), &g); err != nil {
		return "", fmt.Errorf("output is not JSON: %w\n%s", err, got)
	}
	return cmp.Diff(w, g), nil
}
