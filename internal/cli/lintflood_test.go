package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/diag"
)

// emptyResults is a SARIF log of n results {}, each of which draws two
// lints ("no ruleId…", "no message…").
func emptyResults(n int) string {
	return `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"t"}},"results":[` +
		strings.TrimSuffix(strings.Repeat("{},", n), ",") + `]}]}`
}

// TestConvertLintFlood is the attack of a pull request whose SARIF log
// draws a lint for every result: 100,000 results of {} drew 200,000 lint
// lines (and kept each in memory, and placed each by counting lines from
// the start of the log). Streamed to a file or converted to standard
// output, convert prints at most diag.MaxLints lint lines and one that
// names the true total, and exits as it did.
func TestConvertLintFlood(t *testing.T) {
	const n = 100000
	dir := t.TempDir()
	in := filepath.Join(dir, "flood.sarif")
	if err := os.WriteFile(in, []byte(emptyResults(n)), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, args := range map[string][]string{
		"streamed": {"convert", "-o", filepath.Join(dir, "out.agc.json"), in},
		"buffered": {"convert", in},
	} {
		t.Run(name, func(t *testing.T) {
			code, stdout, stderr := runCmd(inActions(nil), "", args...)
			if code != ExitOK {
				t.Fatalf("exit %d, want %d (lints change no exit code):\n%.500s", code, ExitOK, stderr)
			}
			if name == "buffered" && !strings.Contains(stdout, `"unidentified-rule"`) {
				t.Errorf("no findings on standard output: %.300s", stdout)
			}
			lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
			if len(lines) > diag.MaxLints+1 {
				t.Fatalf("%d lines of lint for %d results, want at most %d", len(lines), n, diag.MaxLints+1)
			}
			want := fmt.Sprintf("lint: %s: %d more lints not shown (%d in all); the first %d are above", in, 2*n-diag.MaxLints, 2*n, diag.MaxLints)
			if last := lines[len(lines)-1]; last != want {
				t.Errorf("last line %q, want %q", last, want)
			}
			for _, l := range lines[:len(lines)-1] {
				if !strings.HasPrefix(l, "lint: "+in+":1:") {
					t.Fatalf("a kept lint without its place: %q", l)
				}
			}
			noForeign(t, name, stdout, stderr)
		})
	}
}
