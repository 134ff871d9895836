package sarif_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/internal/testkit"
	"github.com/agcgate/agc-action/sarif"
	"github.com/agcgate/agc-action/sarif/sariftest"
	"github.com/agcgate/agc-action/validate"
)

// corpusDir is the shared corpus of real tools' SARIF: $AGC_SARIF_CORPUS,
// else shared/sarif-corpus beside the repository (where the project's
// workspace and CI keep it).
func corpusDir(t testing.TB) string {
	if dir := os.Getenv("AGC_SARIF_CORPUS"); dir != "" {
		return dir
	}
	return filepath.Join(sariftest.RepoRoot(t), "..", "shared", "sarif-corpus")
}

func corpusFiles(t testing.TB) []string {
	t.Helper()
	return testkit.Corpus(t)
}

// failingResults counts, independently of the package, the results that
// must become findings: kind fail (or absent), no accepted suppression,
// baselineState not absent.
func failingResults(t *testing.T, data []byte) []int {
	t.Helper()
	var log struct {
		Runs []struct {
			Results []struct {
				Kind          any   `json:"kind"`
				BaselineState any   `json:"baselineState"`
				Suppressions  []any `json:"suppressions"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, run := range log.Runs {
		n := 0
		for _, r := range run.Results {
			if r.Kind != nil && r.Kind != "fail" || r.BaselineState == "absent" {
				continue
			}
			suppressed := false
			for _, s := range r.Suppressions {
				st, _ := s.(map[string]any)["status"]
				if st == nil || st == "accepted" {
					suppressed = true
				}
			}
			if !suppressed {
				n++
			}
		}
		out = append(out, n)
	}
	return out
}

// TestCorpus converts every file of the corpus to AGC (valid, one finding
// per failing result) and back to SARIF (schema, GitHub limits, and one
// Multitool call for all outputs), and checks that the round trip keeps
// every result's rule, level, message, location and fixes.
func TestCorpus(t *testing.T) {
	out := t.TempDir()
	outputs := map[string]string{}
	for _, file := range corpusFiles(t) {
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			log, _, err := sarif.ReadLog(bytes.NewReader(data), name, sarif.ReadOptions{})
			if err != nil {
				t.Fatalf("ReadLog: %v", err)
			}
			resps, lints := sarif.ToAGC(log, sarif.ToAGCOptions{})
			// The one lint converting a foreign log may give: a result's
			// fixes could not become a patch (no sources here).
			for _, l := range lints {
				if !strings.Contains(l.Message, "become a patch remedy") {
					t.Errorf("ToAGC lint on a foreign log: %v", l)
				}
			}
			want := failingResults(t, data)
			if len(resps) != len(want) {
				t.Fatalf("%d responses for %d runs", len(resps), len(want))
			}
			for i, r := range resps {
				if len(r.Findings) != want[i] {
					t.Errorf("run %d: %d findings, want %d (one per unsuppressed failing result)", i, len(r.Findings), want[i])
				}
				checkValid(t, name, r)
			}
			var buf bytes.Buffer
			if err := sarif.Write(&buf, resps, sarif.WriteOptions{}); err != nil {
				t.Fatalf("Write: %v", err)
			}
			back := buf.Bytes()
			if err := sariftest.CheckSchema(t, back); err != nil {
				t.Errorf("output breaks the SARIF schema: %v", err)
			}
			if err := sariftest.CheckLimits(back); err != nil {
				t.Errorf("output breaks GitHub's limits: %v", err)
			}
			compareResults(t, log, back)
			path := filepath.Join(out, strings.TrimSuffix(name, ".sarif")+".out.sarif")
			if err := os.WriteFile(path, back, 0o644); err != nil {
				t.Fatal(err)
			}
			outputs[path] = name
		})
	}
	var paths []string
	for p := range outputs {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for file, errs := range sariftest.Multitool(t, paths) {
		t.Errorf("Multitool errors in %s (from %s):\n  %s", file, outputs[file], strings.Join(errs, "\n  "))
	}
}

func checkValid(t *testing.T, name string, r *agc.Response) {
	t.Helper()
	data, err := agc.Encode(r)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	for _, v := range validate.Bytes(name+".agc.json", data, agc.Limits{}) {
		if v.Severity == validate.SeverityError {
			t.Errorf("validate: %s", v)
		}
	}
}

// key is what the round trip must keep of a result.
type key struct {
	Rule, Level, Message, Where string
	Region                      string
	Fixes                       string
}

func keys(t *testing.T, log *sarif.Log) []key {
	t.Helper()
	var out []key
	for _, run := range log.Runs {
		var findings, others []key
		for _, r := range run.Results {
			k := key{Rule: r.RuleID, Level: r.Level, Message: r.Message}
			if r.Loc != nil {
				k.Where = r.Loc.Path
				if !r.Loc.Relative {
					k.Where = "" // written as a stand-in; the path is in the logical location
				}
				if r.Loc.Region != nil && r.Loc.Relative && r.Loc.Region.StartLine > 0 {
					b, _ := json.Marshal(r.Loc.Region)
					k.Region = string(b)
				}
			}
			b, _ := json.Marshal(relativeFixes(r.Fixes))
			k.Fixes = string(b)
			if r.Kind == "fail" && !r.Suppressed && r.BaselineState != "absent" {
				findings = append(findings, k)
			} else {
				others = append(others, k)
			}
		}
		out = append(append(out, findings...), others...)
	}
	return out
}

// relativeFixes: only fixes on relative paths can be written (GitHub
// rejects absolute URIs).
func relativeFixes(fixes []sarif.Fix) []sarif.Fix {
	for _, f := range fixes {
		for _, c := range f.Changes {
			if !c.Relative {
				return nil
			}
		}
	}
	return fixes
}

func compareResults(t *testing.T, orig *sarif.Log, back []byte) {
	t.Helper()
	log2, _, err := sarif.ReadLog(bytes.NewReader(back), "back.sarif", sarif.ReadOptions{})
	if err != nil {
		t.Fatalf("read the output back: %v", err)
	}
	a, b := keys(t, orig), keys(t, log2)
	if len(a) != len(b) {
		t.Fatalf("%d results in, %d out", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Errorf("result %d changed:\n  in:  %+v\n  out: %+v", i, a[i], b[i])
			return
		}
	}
}
