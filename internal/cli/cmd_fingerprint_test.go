package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/fingerprint"
	"github.com/agcgate/agc-action/fingerprint/gittest"
	"github.com/agcgate/agc-action/subject"
)

// fpCall runs a command function with buffers and no environment.
func fpCall(t *testing.T, run func(*Env, []string) int, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return envCall(t, func(string) string { return "" }, run, args...)
}

// envCall runs a command function with buffers and the environment getenv.
func envCall(t *testing.T, getenv func(string) string, run func(*Env, []string) int, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: getenv, Version: "test"}
	code = run(e, args)
	return code, out.String(), errb.String()
}

// fpRepo is a repository with code under src/, docs, and a gate config.
func fpRepo(t *testing.T) *gittest.Repo {
	r := gittest.New(t)
	r.Write("src/a.go", "package a\n", "src/b.go", "package b\n", "docs/README.md", "# docs\n",
		".agc/review.md", "Review src/.\n", ".agc/scope", "src/**\n")
	r.Commit("base")
	return r
}

// responseFile writes an AGC response judged at rev of r over scope and
// returns its path.
func responseFile(t *testing.T, r *gittest.Repo, rev, kind string, scope []string, configs ...string) string {
	t.Helper()
	args := []string{"--repo", r.Dir, "--rev", rev, "--gate-id", "review", "--gate-version", "1.0"}
	for _, s := range scope {
		args = append(args, "--scope", s)
	}
	for _, c := range configs {
		args = append(args, "--gate-config", c)
	}
	code, out, errs := fpCall(t, runFingerprint, args...)
	if code != ExitOK {
		t.Fatalf("fingerprint: exit %d: %s", code, errs)
	}
	return writeResponse(t, kind, strings.TrimSpace(out), scope)
}

func writeResponse(t *testing.T, kind, fp string, scope []string) string {
	t.Helper()
	sc := `"` + strings.Join(scope, `","`) + `"`
	doc := `{"agc":"0.1","gate":{"id":"review","kind":"judgment","version":"1.0"},
 "subject":{"kind":"` + kind + `","fingerprint":"` + fp + `","scope":[` + sc + `]},
 "verdict":"block",
 "findings":[{"id":"nil-check","class":"bug","location":"src/a.go:1","what":"a is nil","why":"it panics",
   "severity":"blocking","status":"new","remedy":{"kind":"command","run":"go vet ./..."},"check":{"kind":"command","run":"go test ./..."}}],
 "coverage":{"complete":true,"classes":["bug"]},"attempt":{"n":1,"budget":3},"x-extra":{"kept":true}}`
	path := filepath.Join(t.TempDir(), "response.json")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestFingerprintPrintsAndExplains(t *testing.T) {
	r := fpRepo(t)
	code, out, errs := fpCall(t, runFingerprint, "--repo", r.Dir, "--scope", "src/**", "--explain")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	g := &fingerprint.Git{Dir: r.Dir}
	defer g.Close()
	sc, _ := subject.ParseScope([]string{"src/**"})
	res, err := subject.Compute(context.Background(), g, subject.Options{Rev: "HEAD", Scope: sc})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out, "\n")
	if lines[0] != res.Fingerprint {
		t.Errorf("first line %q, want %s", lines[0], res.Fingerprint)
	}
	for _, want := range []string{"commit " + res.Commit, `scope "src/**"`, "\tsrc/a.go\n", "\tsrc/b.go\n", "2 of 5 entries selected"} {
		if !strings.Contains(out, want) {
			t.Errorf("--explain output lacks %q:\n%s", want, out)
		}
	}
	_, base, _ := fpCall(t, runFingerprint, "--repo", r.Dir, "--scope-file", ".agc/scope", "--base", "main")
	if base != lines[0]+"\n" {
		t.Errorf("--scope-file .agc/scope --base main printed %q, want %s", base, lines[0])
	}
}

func TestFingerprintSubject(t *testing.T) {
	r := fpRepo(t)
	resp := responseFile(t, r, "HEAD", "pull-request", []string{"src/**"}, ".agc/review.md")
	code, out, errs := fpCall(t, runFingerprint, "--repo", r.Dir, "--subject", resp, "--gate-config", ".agc/review.md")
	if code != ExitOK || !strings.Contains(out, "matches the content in its scope") {
		t.Fatalf("unchanged content: exit %d\n%s%s", code, out, errs)
	}
	r.Write("docs/README.md", "# docs, reworded\n")
	r.Commit("docs")
	if code, _, errs := fpCall(t, runFingerprint, "--repo", r.Dir, "--subject", resp, "--gate-config", ".agc/review.md"); code != ExitOK {
		t.Errorf("docs-only commit: exit %d: %s", code, errs)
	}
	r.Write("src/a.go", "package a // edited\n")
	r.Commit("edit")
	code, _, errs = fpCall(t, runFingerprint, "--repo", r.Dir, "--subject", resp, "--gate-config", ".agc/review.md")
	if code != ExitFail || !strings.Contains(errs, "the verdict is about other content") {
		t.Errorf("in-scope edit: exit %d, stderr %q", code, errs)
	}
}

func TestFingerprintToolCallAndArtifact(t *testing.T) {
	dir := t.TempDir()
	call := filepath.Join(dir, "call.json")
	if err := os.WriteFile(call, []byte(`{"tool_name":"Bash","tool_input":{"command":"ls"},"session_id":"s"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := fpCall(t, runFingerprint, "--kind", "tool-call", "--input", call, "--scope", "/tool_input", "--scope", "/tool_name")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	fp := strings.TrimSpace(out)
	resp := writeResponse(t, "tool-call", fp, []string{"/tool_name", "/tool_input"})
	if code, _, errs := fpCall(t, runFingerprint, "--subject", resp, "--input", call); code != ExitOK {
		t.Errorf("tool-call subject: exit %d: %s", code, errs)
	}
	art := writeResponse(t, "artifact", subject.Artifact([]byte("other")), nil)
	if code, _, errs := fpCall(t, runFingerprint, "--subject", art, "--input", call); code != ExitFail {
		t.Errorf("artifact with other bytes: exit %d: %s", code, errs)
	}
}

func TestFingerprintUsage(t *testing.T) {
	r := fpRepo(t)
	resp := responseFile(t, r, "HEAD", "commit", []string{"src/**"})
	session := writeResponse(t, "session", "sha256:00", nil)
	for _, args := range [][]string{
		{"--subject", resp, "--scope", "docs/**"},
		{"--scope-file", ".agc/scope"},
		{"--scope", "a", "--scope-file", "b", "--base", "main"},
		{"--kind", "tool-call"},
		{"--kind", "blob"},
		{"extra"},
		{"--repo", r.Dir, "--rev", "no-such-rev"},
		{"--repo", r.Dir, "--scope", "/abs"},
		{"--repo", r.Dir, "--subject", session},
		{"--repo", r.Dir, "--scope-file", ".agc/missing", "--base", "main"},
	} {
		if code, _, errs := fpCall(t, runFingerprint, args...); code != ExitUsage || errs == "" {
			t.Errorf("%q: exit %d, stderr %q; want %d with a message", args, code, errs, ExitUsage)
		}
	}
}
