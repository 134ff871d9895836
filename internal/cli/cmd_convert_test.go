package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/internal/testkit"
)

// convertCmd runs runConvert with buffers and the given environment.
func convertCmd(env map[string]string, stdin string, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	e := &Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb,
		Getenv: func(k string) string { return env[k] }, Version: "test"}
	code = runConvert(e, args)
	return code, out.String(), errb.String()
}

const (
	convertSARIF = "../../fixtures/sarif/lint-two-runs.sarif"
	convertAGC   = "../../fixtures/agc/valid/block-patch.json"
	convertAllow = "../../fixtures/agc/valid/allow-empty.json"
)

func TestConvertExitCodes(t *testing.T) {
	root := t.TempDir()
	tests := []struct {
		name     string
		args     []string
		stdin    string
		code     int
		stdout   string // substring
		stderr   string // substring
		noStderr bool
	}{
		{name: "a blocking gate converts with exit 0 by default", args: []string{"--source-root", root, convertSARIF}, code: ExitOK, stdout: `"verdict": "block"`},
		{name: "fail-on never exits 0 on a blocking gate", args: []string{"--source-root", root, "--fail-on", "never", convertSARIF}, code: ExitOK, stdout: `"verdict": "block"`},
		{name: "fail-on block exits 1 on a blocking gate", args: []string{"--source-root", root, "--fail-on", "block", convertSARIF}, code: ExitFail, stdout: `"verdict": "block"`},
		{name: "fail-on escalate passes a block", args: []string{"--source-root", root, "--fail-on", "escalate", convertSARIF}, code: ExitOK, stdout: `"verdict": "block"`},
		{name: "fail-on after the file", args: []string{"--source-root", root, convertSARIF, "--fail-on", "block"}, code: ExitFail},
		{name: "fail-level none: nothing blocks", args: []string{"--source-root", root, "--fail-level", "none", "--fail-on", "block", convertSARIF}, code: ExitOK, stdout: `"verdict": "allow"`},
		{name: "fail-level warning blocks on warnings", args: []string{"--source-root", root, "--fail-level", "warning", "--fail-on", "block", "--to", "text", convertSARIF}, code: ExitFail},
		{name: "bad fail-on", args: []string{"--fail-on", "always", convertSARIF}, code: ExitUsage, stderr: "must be one of block, escalate, never"},
		{name: "agc to sarif by default", args: []string{"--source-root", root, convertAllow}, code: ExitOK, stdout: `"version":"2.1.0"`, noStderr: true},
		{name: "agc block exits 1 with fail-on block", args: []string{"--source-root", root, "--fail-on", "block", convertAGC}, code: ExitFail, stdout: `"automationDetails"`},
		{name: "agc block exits 0 by default", args: []string{"--source-root", root, convertAGC}, code: ExitOK, stdout: `"automationDetails"`},
		{name: "stdin auto", args: []string{"--source-root", root, "-"}, stdin: `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[]}]}`, code: ExitOK, stdout: `"gate"`},
		{name: "undetectable", args: []string{"--source-root", root, "-"}, stdin: `{"hello": 1}`, code: ExitUsage, stderr: "<stdin>: cannot detect the format (tried agc, agent-protocol, diff, fourgate, gate-receipt, rdjson, rdjsonl, sarif); name it with --from"},
		{name: "wrong version", args: []string{"--source-root", root, "--from", "sarif", "-"}, stdin: `{"version":"2.0.0","runs":[]}`, code: ExitUsage, stderr: `agc-sarif convert: <stdin>:1:12: /version: SARIF version "2.0.0" is not supported`},
		{name: "not json", args: []string{"--source-root", root, "--from", "agc", "-"}, stdin: `{`, code: ExitUsage, stderr: "agc-sarif convert: <stdin>:1:2: json.syntax: unexpected EOF (read as agc)"},
		{name: "no files", args: []string{"--source-root", root}, code: ExitUsage, stderr: "expected at least one FILE"},
		{name: "bad flag value", args: []string{"--to", "pdf", convertAGC}, code: ExitUsage, stderr: "must be one of agc, sarif, text, markdown"},
		{name: "missing file", args: []string{"--source-root", root, "nope.json"}, code: ExitUsage, stderr: "nope.json"},
		{name: "bad source root", args: []string{"--source-root", filepath.Join(root, "missing"), convertAGC}, code: ExitUsage, stderr: "--source-root"},
		{name: "lint on stderr", args: []string{"--source-root", root, "../../fixtures/sarif/hostile-snippet-only-region.sarif"}, code: ExitOK,
			stderr: "lint: ../../fixtures/sarif/hostile-snippet-only-region.sarif:3:107: /runs/0/results/0/locations/0/physicalLocation/region: a region with only a snippet"},
		{name: "help", args: []string{"-h"}, code: ExitOK, stdout: "usage: agc-sarif convert", noStderr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := convertCmd(nil, tt.stdin, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.code, errOut)
			}
			if !strings.Contains(out, tt.stdout) {
				t.Errorf("stdout lacks %q:\n%s", tt.stdout, out)
			}
			if !strings.Contains(errOut, tt.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tt.stderr, errOut)
			}
			if tt.noStderr && errOut != "" {
				t.Errorf("unexpected stderr:\n%s", errOut)
			}
		})
	}
}

// TestConvertSeveralAGCInputs: several AGC inputs make one SARIF log with
// one run per response, written to -o; converting it back gives an array.
func TestConvertSeveralAGCInputs(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.sarif")
	fixtures := testkit.Glob(t, "../../fixtures/agc/valid/*.json")
	args := append([]string{"--source-root", dir, "-o", out}, fixtures...)
	code, stdout, errOut := convertCmd(nil, "", args...)
	if code != ExitOK || stdout != "" {
		t.Fatalf("exit %d (want 0: convert reports, --fail-on never), stdout %q, stderr %s", code, stdout, errOut)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var log struct{ Runs []json.RawMessage }
	if err := json.Unmarshal(data, &log); err != nil || len(log.Runs) != len(fixtures) {
		t.Fatalf("%d runs for %d inputs (%v)", len(log.Runs), len(fixtures), err)
	}
	code, back, errOut := convertCmd(nil, "", "--source-root", dir, "--to", "agc", out, "--fail-on", "block")
	if code != ExitFail {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	docs, err := agc.DecodeAll("back", []byte(back), agc.Limits{})
	if err != nil || len(docs) != len(fixtures) {
		t.Fatalf("%d responses back (%v)", len(docs), err)
	}
	for i, d := range docs {
		want, _ := os.ReadFile(fixtures[i])
		var a, b any
		_ = json.Unmarshal(want, &a)
		_ = json.Unmarshal(d.Raw, &b)
		if !jsonEqual(a, b) {
			t.Errorf("%s did not survive the round trip:\n%s", fixtures[i], d.Raw)
		}
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// TestConvertSourceRootFromWorkspace: without --source-root, paths resolve
// under GITHUB_WORKSPACE.
func TestConvertSourceRootFromWorkspace(t *testing.T) {
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "src", "store"), 0o755); err != nil {
		t.Fatal(err)
	}
	src := "package store\n\nfunc Open() {\n\tdb.Ping()\n}\n"
	if err := os.WriteFile(filepath.Join(ws, "src", "store", "db.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out, errOut := convertCmd(map[string]string{"GITHUB_WORKSPACE": ws}, "", convertAGC)
	if !strings.Contains(out, `"agc/region":"resolved"`) || !strings.Contains(out, `"fixes"`) {
		t.Errorf("the patch did not resolve under GITHUB_WORKSPACE; stderr %s\n%s", errOut, out)
	}
}

// TestConvertTextOutput renders responses made from SARIF.
func TestConvertTextOutput(t *testing.T) {
	code, out, _ := convertCmd(nil, "", "--source-root", t.TempDir(), "--to", "text", convertSARIF)
	if code != ExitOK || !strings.Contains(out, "fmt.Println in library code.") || !strings.Contains(out, "secret-scan") {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
}

// TestConvertSyntaxErrorBeforeDetection: a JSON-looking input no format
// recognises is reported with its own syntax error and its place.
func TestConvertSyntaxErrorBeforeDetection(t *testing.T) {
	for in, want := range map[string]string{
		"{\"agc\":\"0.1\xff\"}": "agc-sarif convert: <stdin>:1:12: /agc: json.syntax: invalid UTF-8",
		`{"agc": "0.1",`:        "agc-sarif convert: <stdin>:1:15: json.syntax",
		`{"hello": 1}`:          "cannot detect the format",
	} {
		code, _, errs := run(t, in, "convert", "-")
		if code != ExitUsage || !strings.Contains(errs, want) {
			t.Errorf("%q: exit %d, stderr %q, want %q", in, code, errs, want)
		}
	}
	if code, _, errs := run(t, `{"agc":"0.1"}`, "convert", "--max-bytes", "5", "-"); code != ExitUsage || !strings.Contains(errs, "--max-bytes") {
		t.Errorf("--max-bytes: exit %d, %s", code, errs)
	}
}

// TestConvertSourceRootKeepsSymlinksIn: convert reads lines through the
// source root (cmdenv.SourceFS), so a file under it that links outside it
// cannot bring its target into a fix; a FIFO does not block it.
func TestConvertSourceRootKeepsSymlinksIn(t *testing.T) {
	root, secret := t.TempDir(), filepath.Join(t.TempDir(), "secret.txt")
	for _, err := range []error{
		os.WriteFile(secret, []byte("SECRET=hunter2\n"), 0o644),
		os.Symlink(secret, filepath.Join(root, "link.txt")),
		syscall.Mkfifo(filepath.Join(root, "fifo.txt"), 0o644),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	log := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"ruleId":"r","level":"error","message":{"text":"m"},
	  "locations":[{"physicalLocation":{"artifactLocation":{"uri":"link.txt"},"region":{"startLine":1}}}],
	  "fixes":[{"artifactChanges":[{"artifactLocation":{"uri":"link.txt"},"replacements":[{"deletedRegion":{"startLine":1,"startColumn":1,"endColumn":10},"insertedContent":{"text":"X"}}]}]}]}]}]}`
	code, out, errs := run(t, log, "convert", "--source-root", root, "--to", "agc", "-")
	if code == ExitUsage {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Contains(out, "hunter2") {
		t.Fatalf("the symlink's target leaked into the output:\n%s", out)
	}
}

// TestConvertStreamedIsBuffered: a SARIF log converted into a file (the
// streamed path, sarif.Read writing to it) gives the bytes, lints and exit code
// that standard output (the buffered path) gives, for each fail level and
// --fail-on; a log with lint and one with a fix from the sources.
func TestConvertStreamedIsBuffered(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n\nfunc f() { x := compute(1) }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(root, "lint.sarif")
	if err := os.WriteFile(log, []byte(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T","rules":[{"id":"R","defaultConfiguration":{"level":"ERROR"}}]}},"results":[`+
		`{"ruleId":"R","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.go"},"region":{"startLine":3,"startColumn":12,"endColumn":26}}}],`+
		`"fixes":[{"artifactChanges":[{"artifactLocation":{"uri":"a.go"},"replacements":[{"deletedRegion":{"startLine":3,"startColumn":17,"endColumn":27},"insertedContent":{"text":"one"}}]}]}]},`+
		`{"ruleId":"R","level":"note","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.go"},"region":{"startLine":"3"}}}]},`+
		`{"ruleId":"S","kind":"pass","message":{"text":"passed"}}]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{log, "../../fixtures/sarif/hostile-odd-values.sarif", "../../fixtures/sarif/hostile-snippet-only-region.sarif"} {
		for _, args := range [][]string{{}, {"--fail-on", "block"}, {"--fail-level", "note", "--fail-on", "block"}, {"--fail-level", "none", "--fail-on", "block"}} {
			args = append([]string{"--source-root", root}, args...)
			wantCode, wantOut, wantErr := convertCmd(nil, "", append(args, file)...)
			out := filepath.Join(t.TempDir(), "out.agc.json")
			code, stdout, stderr := convertCmd(nil, "", append(args, "-o", out, file)...)
			got, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if code != wantCode || stdout != "" || stderr != wantErr || string(got) != wantOut {
				t.Errorf("%s %v: streamed exit %d, stderr %q, output\n%s\nbuffered exit %d, stderr %q, output\n%s", file, args, code, stderr, got, wantCode, wantErr, wantOut)
			}
			if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) != 1 {
				t.Errorf("%s: %d files beside the output, want only it", file, len(entries))
			}
		}
	}
}
