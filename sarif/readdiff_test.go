package sarif

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/diag"
	"github.com/agcgate/agc-action/internal/testkit"
	"github.com/go-json-experiment/json/jsontext"
)

// treeRun is how a run was read before the byte reader: decoded into a
// tree by decodeRun (encoding/json for what treeDecoder declines), then
// read by treeReader.
func treeRun(v []byte, base string, opts ReadOptions) (*Run, []diag.Lint, error) {
	tree, fp, err := decodeRun(v, map[string]string{})
	if err != nil {
		return nil, nil, err
	}
	rd := &treeReader{}
	run := rd.run(asObj(tree), base, fp, opts)
	return run, rd.lints, nil
}

// checkReadRun: readRun, the byte reader, reads run v exactly as the tree
// reader did: the same run, results, rules and fingerprint, the same lints
// in the same order, or the same error.
func checkReadRun(t *testing.T, name string, v []byte) {
	t.Helper()
	for _, opts := range []ReadOptions{{}, {Root: "/w"}} {
		want, wantLints, wantErr := treeRun(v, "/runs/0", opts)
		rd := &reader{}
		got, gotErr := rd.readRun(v, "/runs/0", map[string]string{}, opts)
		if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
			t.Fatalf("%s: error %v, want %v: %.200s", name, gotErr, wantErr, v)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the byte reader's run differs from the tree reader's for %.200s\n got %+v\nwant %+v", name, v, got, want)
		}
		// On an error the run's lints are not returned (parseLog drops
		// them), so only a read that succeeds must lint alike.
		if gotErr == nil && !slices.Equal(rd.lints.List(), wantLints) {
			t.Errorf("%s: lints differ for %.200s\n got %v\nwant %v", name, v, rd.lints.List(), wantLints)
		}
	}
}

// testLogs is every SARIF log the tests read from files: the corpus and
// the testdata of this package and of the CLI.
func testLogs(t *testing.T) []string {
	return append(testkit.Corpus(t), testkit.Glob(t, "testdata/*.sarif", "../internal/cli/testdata/*/*.sarif")...)
}

// TestReadRunIsTreeRead: every run of every corpus and test log, and each
// run the decoder and stream tests are made of, reads the same through the
// bytes as through the tree, whether streamed or decoded by encoding/json.
func TestReadRunIsTreeRead(t *testing.T) {
	runs := 0
	for _, f := range testLogs(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		_, raws, err := parseTop(data, lead{}, f)
		if err != nil {
			continue // refused before any run is read
		}
		for _, raw := range raws {
			if raw.Kind() == '{' {
				runs++
				checkReadRun(t, f, raw)
			}
		}
	}
	t.Logf("%d runs", runs)
	if runs < 10 {
		t.Errorf("only %d runs read", runs)
	}
	for _, c := range append(append([]string{}, streamRunCases...), decodeRunCases...) {
		if jsontext.Value(c).Kind() == '{' {
			checkReadRun(t, "case", []byte(c))
		}
	}
}

// FuzzReadRun: for any JSON object, the byte reader reads what the tree
// reader read, streamed or not.
func FuzzReadRun(f *testing.F) {
	for _, c := range append(append([]string{}, streamRunCases...), decodeRunCases...) {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !jsontext.Value(data).IsValid(jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)) || jsontext.Value(data).Kind() != '{' {
			return
		}
		checkReadRun(t, "fuzz", data)
	})
}

// TestHasFileScheme: hasFileScheme is strings.ToLower's prefix test.
func TestHasFileScheme(t *testing.T) {
	for _, uri := range []string{"", "f", "file:", "FILE:///a", "File://x", "files:", "fil", "FİLE:///a", "fİle:", "ﬁle:", "http://a", "src/file:x"} {
		if got, want := hasFileScheme(uri), strings.HasPrefix(strings.ToLower(uri), "file:"); got != want {
			t.Errorf("hasFileScheme(%q) = %v, want %v", uri, got, want)
		}
	}
}
