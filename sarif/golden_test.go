package sarif_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agcgate/agc-action/internal/golden"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/formats"
	"github.com/agcgate/agc-action/sarif/sariftest"
)

var update = flag.Bool("update", false, "rewrite golden files")

// sourcesForLint are the files lint-two-runs.sarif names.
var sourcesForLint = fstest.MapFS{
	"src/lib/print.go":   {Data: []byte("package lib\nfunc Hello() {\n\tfmt.Println(\"hello\")\n}\n")},
	"src/lib/my file.go": {Data: []byte("package lib\nconst answer = 42\n")},
	"src/main.go":        {Data: []byte("package main\n")},
}

// TestGolden checks a few conversions against testdata/, compared by
// meaning, and runs every SARIF output through the three checks (one
// Multitool call).
func TestGolden(t *testing.T) {
	fix := filepath.Join(sariftest.RepoRoot(t), "fixtures")
	reg := formats.Default()
	tests := []struct {
		golden, input, from, to string
		fsys                    fstest.MapFS
	}{
		{"lint-two-runs.agc.json", "sarif/lint-two-runs.sarif", "sarif", "agc", sourcesForLint},
		{"lint-two-runs.roundtrip.sarif", "sarif/lint-two-runs.sarif", "sarif", "sarif", sourcesForLint},
		{"block-patch.sarif", "agc/valid/block-patch.json", "agc", "sarif", sourcesForFixtures},
		{"block-patch-no-sources.sarif", "agc/valid/block-patch.json", "agc", "sarif", nil},
		{"repaired-rewrite.sarif", "agc/valid/repaired-rewrite.json", "agc", "sarif", nil},
		{"escalate-review.sarif", "agc/valid/escalate-review.json", "agc", "sarif", nil},
		{"rich.sarif", "../sarif/testdata/agc/rich.json", "agc", "sarif", nil},
	}
	dir := t.TempDir()
	var sarifs []string
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(fix, tt.input))
			if err != nil {
				t.Fatal(err)
			}
			in, _ := reg.Lookup(tt.from)
			rs, _, err := in.Read(tt.input, data, formats.ReadOptions{FS: tt.fsys, FailLevel: "error"})
			if err != nil {
				t.Fatal(err)
			}
			if tt.from == "sarif" && tt.to == "sarif" {
				// Through AGC text, as the CLI does it in two steps.
				rs = reencode(t, rs)
			}
			out, _ := reg.Lookup(tt.to)
			var buf bytes.Buffer
			if err := out.Write(&buf, rs, formats.WriteOptions{FS: tt.fsys}); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", tt.golden), buf.Bytes(), *update)
			if strings.HasSuffix(tt.golden, ".sarif") {
				if err := sariftest.CheckSchema(t, buf.Bytes()); err != nil {
					t.Errorf("schema: %v", err)
				}
				p := filepath.Join(dir, tt.golden)
				if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				sarifs = append(sarifs, p)
			} else {
				for _, r := range rs {
					checkValid(t, tt.golden, r)
				}
			}
		})
	}
	for file, errs := range sariftest.Multitool(t, sarifs) {
		t.Errorf("Multitool errors in %s:\n  %s", file, strings.Join(errs, "\n  "))
	}
}

func reencode(t *testing.T, rs []*agc.Response) []*agc.Response {
	t.Helper()
	var out []*agc.Response
	for _, r := range rs {
		b, err := agc.Encode(r)
		if err != nil {
			t.Fatal(err)
		}
		r2, err := agc.Decode("re", b, agc.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r2)
	}
	return out
}
