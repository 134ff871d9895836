package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// gofmtDiff is what `gofmt -d .` prints for one badly formatted file.
const gofmtDiff = `diff m.go.orig m.go
--- m.go.orig
+++ m.go
@@ -1,4 +1,4 @@
 package m
 
-func  f( ) {
+func f() {
 }
`

// TestConvertedDiffValidatesWithoutLint: issue 24, item 5. What convert
// writes for a fixer's diff validates without lint once the user states
// what the diff cannot (the gate's version, what the tool judged); without
// them, the only lints are the two that say so, never one on the
// locations or ids convert wrote.
func TestConvertedDiffValidatesWithoutLint(t *testing.T) {
	for _, tc := range []struct {
		name  string
		flags []string
		lints []string
	}{
		{"stated", []string{"--gate-version", "go1.26", "--scope", "**/*.go"}, nil},
		{"unstated", nil, []string{"L4.gate-version", "L5.scope"}},
		{"scope only", []string{"--scope", "**/*.go", "--scope", "!**/*_test.go"}, []string{"L4.gate-version"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"convert", "--from", "diff", "--gate", "gofmt", "--source-root", t.TempDir()}, tc.flags...)
			code, out, stderr := run(t, gofmtDiff, append(args, "-")...)
			if code != ExitOK {
				t.Fatalf("convert: exit %d: %s", code, stderr)
			}
			code, vout, verr := run(t, out, "validate", "-")
			if code != ExitOK {
				t.Fatalf("validate: exit %d: %s%s", code, vout, verr)
			}
			got := vout + verr
			for _, l := range tc.lints {
				if !strings.Contains(got, l) {
					t.Errorf("want lint %s, got:\n%s", l, got)
				}
			}
			if n := strings.Count(got, "lint: "); n != len(tc.lints) {
				t.Errorf("want %d lints, got %d:\n%s", len(tc.lints), n, got)
			}
		})
	}
}

// TestConvertKeepsWhatTheInputStates: --gate-version and --scope fill in
// only what a response leaves unstated.
func TestConvertKeepsWhatTheInputStates(t *testing.T) {
	in := `{"agc":"0.1","gate":{"id":"lint","version":"9"},"subject":{"fingerprint":"sha256:` + strings.Repeat("a", 64) + `","scope":["src/**"]},"verdict":"allow","findings":[],"coverage":{"complete":true},"attempt":{"n":1,"max":3}}`
	code, out, stderr := run(t, in, "convert", "--from", "agc", "--to", "agc", "--gate-version", "1", "--scope", "**", "-")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r struct {
		Gate    struct{ Version string }
		Subject struct{ Scope []string }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Gate.Version != "9" || len(r.Subject.Scope) != 1 || r.Subject.Scope[0] != "src/**" {
		t.Errorf("the input's own version and scope were replaced: %+v", r)
	}
}

// TestConvertRefusesABadScope: --scope takes only what fingerprint and
// carry can use, so convert never writes a scope nothing else accepts.
func TestConvertRefusesABadScope(t *testing.T) {
	for _, pat := range []string{"/abs/**", "[", "../up/**"} {
		code, out, stderr := run(t, gofmtDiff, "convert", "--from", "diff", "--gate", "gofmt", "--source-root", t.TempDir(), "--scope", pat, "-")
		if code != ExitUsage || out != "" || !strings.Contains(stderr, "--scope") {
			t.Errorf("--scope %q: exit %d, stdout %q, stderr %q", pat, code, out, stderr)
		}
	}
}
