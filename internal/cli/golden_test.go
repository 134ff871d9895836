package cli

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// testdata is this package's testdata directory, fixed before any test
// changes the working directory.
var testdata = func() string {
	wd, err := os.Getwd()
	if err != nil {
		panic(err)
	}
	return filepath.Join(wd, "testdata")
}()

// run calls Main with buffers and returns the exit code and output.
func run(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(args, strings.NewReader(stdin), &out, &errb, func(string) string { return "" }, "test")
	return code, out.String(), errb.String()
}

// golden compares got with testdata/NAME, by meaning for .json files and
// byte for byte otherwise; -update rewrites the file.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join(testdata, name)
	if *update {
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
		t.Fatalf("%v (run go test ./internal/cli -update to create it)", err)
	}
	if strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".sarif") {
		var g, w any
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatalf("output is not JSON: %v\n%s", err, got)
		}
		if err := json.Unmarshal(want, &w); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if d := cmp.Diff(w, g); d != "" {
			t.Errorf("%s differs (-want +got):\n%s", path, d)
		}
		return
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, d)
	}
}
