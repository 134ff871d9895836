package cli

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	goldenfile "github.com/agcgate/agc-action/internal/golden"
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
	code = Main(testEnv(strings.NewReader(stdin), &out, &errb, func(string) string { return "" }), args)
	return code, out.String(), errb.String()
}

// golden compares got with testdata/NAME (by meaning for .json and
// .sarif files); -update rewrites the file.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Check(t, filepath.Join(testdata, name), got, *update)
}
