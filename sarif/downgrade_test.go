package sarif_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/agcgate/agc-action/sarif"
)

// TestRemedyDowngradeIsLint: semgrep's autofixes name the text they
// replace by its region alone. Without the file under the source root
// they cannot become a patch; the finding's remedy is then a delegate,
// and that is a lint at the result's fix saying why, on both paths a log
// is converted by (Read, kept or written to a file). With the file, they are patches
// and nothing is said.
func TestRemedyDowngradeIsLint(t *testing.T) {
	file := ""
	for _, f := range corpusFiles(t) {
		if filepath.Base(f) == "semgrep-autofix.sarif" {
			file = f
		}
	}
	if file == "" {
		t.Fatal("semgrep-autofix.sarif is not in the corpus")
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := "import x\n\ndef f(inputs):\n  for x in inputs:\n  inputs[x] = 1\n  if inputs[x + 1] == True:\n    pass\n"
	withFile := fstest.MapFS{"targets/autofix/autofix.py": {Data: []byte(lines)}}
	wantLints := []string{
		"/runs/0/results/0/fixes/0: the fix of this result cannot become a patch remedy: the text it replaces at targets/autofix/autofix.py:5:3-5:12 is unknown: the file is not under the source root (--source-root) and the region has no snippet; the finding's remedy is delegate to the author of the change",
		"/runs/0/results/1/fixes/0: the fix of this result cannot become a patch remedy: the text it replaces at targets/autofix/autofix.py:6:6-6:19 is unknown: the file is not under the source root (--source-root) and the region has no snippet; the finding's remedy is delegate to the author of the change",
	}
	for _, tc := range []struct {
		name  string
		fsys  fstest.MapFS
		kind  string
		lints []string
	}{
		{"without the file", fstest.MapFS{}, agc.RemedyDelegate, wantLints},
		{"with the file", withFile, agc.RemedyPatch, nil},
	} {
		t.Run(tc.name+"/ToAGC", func(t *testing.T) {
			log, lints, err := sarif.ReadLog(bytes.NewReader(data), "semgrep.sarif", sarif.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			rs, more := sarif.ToAGC(log, sarif.ToAGCOptions{FS: tc.fsys})
			for _, f := range rs[0].Findings {
				if f.Remedy.Kind != tc.kind {
					t.Errorf("%s: remedy %s, want %s", f.ID, f.Remedy.Kind, tc.kind)
				}
			}
			checkLints(t, append(lints, more...), tc.lints)
		})
		t.Run(tc.name+"/written", func(t *testing.T) {
			f, err := os.Create(filepath.Join(t.TempDir(), "out.json"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			got, err := sarif.Read(data, "semgrep.sarif", sarif.Options{FS: tc.fsys, Out: f})
			if err != nil || !got.Written {
				t.Fatalf("not written: %v", err)
			}
			out, err := os.ReadFile(f.Name())
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(out), `"kind": "`+tc.kind+`"`); n != 2 {
				t.Errorf("%d %s remedies, want 2:\n%s", n, tc.kind, out)
			}
			checkLints(t, got.Lints, tc.lints)
		})
	}
}

func checkLints(t *testing.T, lints []diag.Lint, want []string) {
	t.Helper()
	var got []string
	for _, l := range lints {
		if strings.Contains(l.Message, "become a patch remedy") {
			got = append(got, l.Pointer+": "+l.Message)
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("lints:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
