package sarif_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/diag"
	"github.com/agcgate/agc-action/internal/testkit"

	"github.com/agcgate/agc-action/sarif"
	"github.com/agcgate/agc-action/sarif/sariftest"
)

// TestHostile: malformed or hostile logs give a clear error, or are read
// with lint, each naming the place; nothing panics.
func TestHostile(t *testing.T) {
	tests := []struct {
		file      string
		wantErr   string   // substring of the error, "" for none
		wantLints []string // "pointer: substring" that must be among the lint
	}{
		{"hostile-wrong-version.sarif", `:1:14: /version: SARIF version "2.0.0" is not supported`, nil},
		{"hostile-truncated.sarif", ":1:41: /runs: unexpected end of input", nil},
		{"hostile-runs-not-array.sarif", ":1:31: /runs: runs must be an array, not an object", nil},
		{"hostile-rule-index-out-of-range.sarif", "", []string{
			"/runs/0/results/0/ruleIndex: ruleIndex 7 is out of range (tool.driver has 1 rules)",
			`/runs/0/results/0: no ruleId, ruleIndex or rule; the class is "unidentified-rule"`,
			"/runs/0/results/1/ruleIndex: ruleIndex 3 is out of range",
		}},
		{"hostile-snippet-only-region.sarif", "", []string{
			"/runs/0/results/0/locations/0/physicalLocation/region: a region with only a snippet does not place the result (§3.30.1)",
		}},
		{"hostile-absolute-file-uri.sarif", "", []string{
			`/runs/0/results/0/locations/0/physicalLocation/artifactLocation/uri: absolute path "/etc/passwd" is outside the source root`,
			`/runs/0/results/0/fixes/0/artifactChanges/0/artifactLocation/uri: absolute path "/etc/shadow" is outside the source root`,
		}},
		{"hostile-odd-values.sarif", "", []string{
			`/runs/0/tool/driver/rules/0/defaultConfiguration/level: level "Error" is not lower case`,
			`/runs/0/results/0/kind: kind "bogus" is not a SARIF result kind`,
			"/runs/0/results/0/fingerprints/nested: a fingerprint is a string, not an object",
			`/runs/0/results/0/locations/0/physicalLocation/artifactLocation/uri: URI "..\\..\\up.txt" uses backslashes`,
			`/runs/0/results/0/locations/0/physicalLocation/artifactLocation/uri: relative path "../../up.txt" leaves the source root`,
			"/runs/0/results/0/locations/0/physicalLocation/region/startLine: integer written as a string; read as 4",
			"/runs/0/results/0/locations/0/physicalLocation/region/endLine: endLine 2 is before startLine 4",
			"/runs/0/results/1/level: expected a string, got a number",
			"/runs/0/results/2: a result is an object, not a string; skipped",
		}},
	}
	dir := filepath.Join(sariftest.RepoRoot(t), "fixtures", "sarif")
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			log, lints, err := sarif.ReadLog(bytes.NewReader(data), tt.file, sarif.ReadOptions{Root: "/work/project"})
			if tt.wantErr != "" {
				var se *diag.Error
				if !errors.As(err, &se) || !strings.Contains(err.Error(), tt.wantErr) || !strings.HasPrefix(err.Error(), tt.file+":") {
					t.Fatalf("error = %v, want a *diag.Error naming %s and containing %q", err, tt.file, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ReadLog: %v", err)
			}
			got := testkit.Strings(lints)
			for _, want := range tt.wantLints {
				found := false
				for _, g := range got {
					found = found || strings.Contains(g, want)
				}
				if !found {
					t.Errorf("no lint %q among:\n  %s", want, strings.Join(got, "\n  "))
				}
			}
			resps, _ := sarif.ToAGC(log, sarif.ToAGCOptions{})
			for _, r := range resps {
				checkValid(t, tt.file, r)
			}
		})
	}
}

// TestReadLogErrorPlace: an error is placed in the file as given, with the
// white space ReadLog skips before the log counted.
func TestReadLogErrorPlace(t *testing.T) {
	for in, want := range map[string]string{
		"\n\n  {\"version\": \"2.0.0\", \"runs\": []}": `f.sarif:3:15: /version: SARIF version "2.0.0" is not supported`,
		"\r\n {\"version\": \"2.1.0\", \"runs\": [1,}": "f.sarif:2:33: /runs/0: invalid character ','",
		" {\"version\": \"2.1.0\", \"runs\": []} x":    "f.sarif:1:35: unexpected data after the log object",
		"\n\t[]": "f.sarif:2:2: a SARIF log is a JSON object, not an array",
	} {
		_, _, err := sarif.ReadLog(strings.NewReader(in), "f.sarif", sarif.ReadOptions{})
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("ReadLog(%q) = %v, want it to start with %s", in, err, want)
		}
	}
}

// TestTooLargeDocument: a document over the limit is refused, white space
// alone too.
func TestTooLargeDocument(t *testing.T) {
	for doc, want := range map[string]string{
		`{"version":"2.1.0","runs":[` + strings.Repeat(" ", 2000) + `]}`: "big.sarif: input is larger than the limit of 1000 bytes",
		strings.Repeat(" \n", 1000):                                      "big.sarif: input is larger than the limit of 1000 bytes (only white space so far)",
	} {
		_, err := sarif.Read([]byte(doc), "big.sarif", sarif.Options{MaxBytes: 1000})
		if err == nil || err.Error() != want {
			t.Errorf("error = %v, want %s", err, want)
		}
	}
}
