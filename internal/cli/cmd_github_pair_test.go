package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/ghapi/ghtest"
)

// twoGates is one answer file that speaks for two gates: the gate the
// workflow runs (review, blocking) and one it does not (secrets, allowing).
const twoGates = `[
 {"agc":"0.1","gate":{"id":"review","kind":"judgment","version":"1.0"},
  "subject":{"kind":"pull-request","fingerprint":"sha256:r","scope":["src/**"]},"verdict":"block",
  "findings":[{"id":"review/bug/src/a.go","class":"bug","location":"src/a.go:1","what":"a is nil","why":"it panics",
   "severity":"blocking","status":"new","remedy":{"kind":"command","run":"go vet ./..."},"check":{"kind":"command","run":"go test ./..."}}],
  "coverage":{"complete":true,"classes":["bug"]},"attempt":{"n":1,"budget":3}},
 {"agc":"0.1","gate":{"id":"secrets","kind":"deterministic","version":"1"},
  "subject":{"kind":"pull-request","fingerprint":"sha256:s","scope":["src/**"]},"verdict":"allow",
  "coverage":{"complete":true,"classes":["secret"]},"attempt":{"n":1,"budget":3}}
]`

// carryGithub runs carry --github for gate from before to the new head.
// pr7 is pull request 7 at head on a new emulator, and the environment of
// a workflow step there with the Actions token and no event payload.
func pr7(t *testing.T, head string) (*ghtest.Server, func(string) string) {
	srv := ghtest.New(t, ghtest.Options{})
	srv.SetHead(ghRepo, 7, head, nil)
	return srv, ghEnv(srv, ghtest.TokenActions, map[string]string{"GITHUB_EVENT_PATH": ""})
}

// postCheck runs `github --check --sha SHA --root ROOT ARGS...`, fails
// the test unless it delivers, and returns its standard error.
func postCheck(t *testing.T, env func(string) string, sha, root string, args ...string) string {
	t.Helper()
	code, _, errs := runGH(t, env, append([]string{"--check", "--sha", sha, "--root", root}, args...)...)
	if code != ExitOK {
		t.Fatalf("github --check %s: exit %d: %s", strings.Join(args, " "), code, errs)
	}
	return errs
}

func carryOnGithub(t *testing.T, env func(string) string, dir, gate, before, head string) string {
	t.Helper()
	code, out, errs := envCall(t, env, runCarry, "--github", "--gate", gate, "--repo", dir, "--rev", head, "--sha", head, "--before", before, "--pr", "7", "--scope", "src/**")
	if code != ExitOK {
		t.Fatalf("carry --github --gate %s: exit %d\n%s%s", gate, code, out, errs)
	}
	return out
}

// The attack of issue 11 case 3 through the CLI: a file given to github
// --scope answers for a second gate, and carry --github then carries that
// gate's allow to a head nobody judged. Only an answer from a file paired
// with its gate (ID=FILE) is bound, so only it can be carried.
func TestAttackGithubTwoGatesFile(t *testing.T) {
	r := fpRepo(t)
	h0 := r.Git("rev-parse", "HEAD")
	file := filepath.Join(t.TempDir(), "answers.json")
	if err := os.WriteFile(file, []byte(twoGates), 0o644); err != nil {
		t.Fatal(err)
	}
	srv, env := pr7(t, h0)
	errs := postCheck(t, env, h0, r.Dir, "--scope", "src/**", file)
	if !strings.Contains(errs, "pair") {
		t.Errorf("an unpaired file bound nothing, but the log does not say to pair it:\n%s", errs)
	}
	r.Write("docs/README.md", "# docs, reworded\n")
	h1 := r.Commit("docs")
	srv.SetHead(ghRepo, 7, h1, nil)
	for _, gate := range []string{"secrets", "review"} {
		if out := carryOnGithub(t, env, r.Dir, gate, h0, h1); !strings.HasPrefix(out, "carried=false\n") {
			t.Errorf("gate %s from an unpaired file was carried:\n%s", gate, out)
		}
	}

	// Paired with review, the file is refused whole: it speaks for secrets.
	code, _, errs := runGH(t, env, "--check", "--sha", h1, "--root", r.Dir, "--scope", "src/**", "review="+file)
	if code != ExitUsage || !strings.Contains(errs, "secrets") || !strings.Contains(errs, "pairs this file with gate review") {
		t.Errorf("a paired file answering another gate: exit %d (want %d)\n%s", code, ExitUsage, errs)
	}
}

// A file paired with its gate is bound, and carried across a docs-only push.
func TestGithubPairedFileIsBound(t *testing.T) {
	r := fpRepo(t)
	h0 := r.Git("rev-parse", "HEAD")
	prev := writeResponse(t, "pull-request", "sha256:the-gate's", []string{"src/**"})
	_, env := pr7(t, h0)
	postCheck(t, env, h0, r.Dir, "--scope", "src/**", "review="+prev)
	r.Write("docs/README.md", "# docs, reworded\n")
	h1 := r.Commit("docs")
	if out := carryOnGithub(t, env, r.Dir, "review", h0, h1); !strings.HasPrefix(out, "carried=true\n") {
		t.Errorf("a paired, bound gate was not carried across a docs-only push:\n%s", out)
	}
}

func TestCarryGithubRefusesUnsafeGateID(t *testing.T) {
	code, out, errs := fpCall(t, runCarry, "--github", "--gate", "Review\n::error::x", "--repository", "o/r", "--sha", "0123456", "--pr", "7", "--scope", "src/**")
	if code != ExitUsage || !strings.Contains(errs, "--gate: gate id") || strings.Contains(out+errs, "\n::error") {
		t.Errorf("carry --github with an unsafe gate id: exit %d\n%s%s", code, out, errs)
	}
}
