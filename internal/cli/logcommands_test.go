package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/fingerprint/gittest"
	"github.com/agcgate/agc-action/internal/logsafe/logsafetest"
)

// The judged party's text, as issue 11 (case 4) tried it: a file name with
// line breaks, a finding's what with one, and a rule id in the runner's
// legacy command form.
const (
	hostilePath = "src/x\n::error file=README.md,line=1::INJECTED\n::stop-commands::TOK\ny.go"
	hostileWhat = "x\n::error file=a,line=1::INJ"
	hostileRule = "R2 ##[stop-commands]INJ"
)

// inActions is the environment of a step on a GitHub Actions runner.
func inActions(extra map[string]string) func(string) string {
	env := map[string]string{"GITHUB_ACTIONS": "true"}
	for k, v := range extra {
		env[k] = v
	}
	return func(k string) string { return env[k] }
}

// runCmd runs agc-sarif with args as the process would.
func runCmd(getenv func(string) string, stdin string, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = Main(testEnv(strings.NewReader(stdin), &out, &errb, getenv), args)
	return code, out.String(), errb.String()
}

// noForeign fails when the runner would take a line of any output as a
// command that agc-sarif did not write.
func noForeign(t *testing.T, what string, outputs ...string) {
	t.Helper()
	for _, out := range outputs {
		if bad := logsafetest.Foreign(out); len(bad) > 0 {
			t.Errorf("%s: the runner takes these lines as commands:\n  %s\nin:\n%s", what, strings.Join(bad, "\n  "), out)
		}
	}
}

// hostileRepo is a repository whose second commit adds a file named with
// line breaks into src/.
func hostileRepo(t *testing.T) (r *gittest.Repo, base, head string) {
	r = gittest.New(t)
	r.Write("src/a.go", "package a\n", "docs/README.md", "# docs\n")
	base = r.Commit("base")
	r.Write(hostilePath, "package x\n")
	head = r.Commit("a file named with line breaks")
	if ls := r.Git("ls-tree", "-r", "-z", "--name-only", "HEAD"); !strings.Contains(ls, hostilePath) {
		t.Fatalf("git did not keep the file name: %q", ls)
	}
	return r, base, head
}

func TestRunnerAttackNewlinePathThroughFingerprintExplain(t *testing.T) {
	r, _, _ := hostileRepo(t)
	code, out, errOut := runCmd(inActions(nil), "", "fingerprint", "--repo", r.Dir, "--scope", "src/**", "--explain")
	if code != ExitOK || !strings.Contains(out, "INJECTED") {
		t.Fatalf("exit %d, the entry is not listed:\n%s\n%s", code, out, errOut)
	}
	noForeign(t, "fingerprint --explain", out, errOut)
}

func TestRunnerAttackNewlinePathThroughCarry(t *testing.T) {
	r, base, _ := hostileRepo(t)
	prev := responseFile(t, r, base, "diff", []string{"src/**"})
	code, out, errOut := runCmd(inActions(nil), "", "carry", "--previous", prev, "--previous-rev", base, "--repo", r.Dir)
	if code != ExitFail || !strings.Contains(errOut, "INJECTED") {
		t.Fatalf("exit %d, want 1 naming the added file:\n%s\n%s", code, out, errOut)
	}
	noForeign(t, "carry", out, errOut)
}

// hostileAnswer is a valid block whose finding's what breaks a line into a
// command and whose why holds the legacy form.
func hostileAnswer(t *testing.T) []byte {
	t.Helper()
	r := &agc.Response{AGC: agc.Version, Gate: agc.Gate{ID: "code-review", Kind: agc.Judgment, Version: "1"},
		Subject: agc.Subject{Kind: agc.SubjectPullRequest, Fingerprint: "sha256:x", Scope: []string{"src/**"}},
		Verdict: agc.Block, Coverage: agc.Coverage{Complete: true, Classes: []string{"naming"}}, Attempt: agc.Attempt{N: 1, Budget: 3},
		Findings: []agc.Finding{{ID: "code-review/naming/src/a.go#a", Class: "naming", Location: "src/a.go#a",
			What: hostileWhat, Why: "Rule " + hostileRule, Severity: agc.Blocking, Status: agc.StatusNew,
			Remedy: agc.Remedy{Kind: agc.RemedyDelegate, Role: "author"},
			Check:  agc.Check{Kind: agc.CheckCondition, Condition: "The package has a telling name.", Run: "go vet ./..."}}}}
	data, err := agc.Encode(r)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestRunnerAttackWhatThroughRender(t *testing.T) {
	answer := string(hostileAnswer(t))
	for _, format := range []string{"text", "markdown"} {
		code, out, errOut := runCmd(inActions(nil), answer, "render", "--format", format, "-")
		if code != ExitOK || !strings.Contains(out, "INJ") {
			t.Fatalf("render --format %s: exit %d\n%s\n%s", format, code, out, errOut)
		}
		noForeign(t, "render --format "+format, out, errOut)
	}
}

// TestRunnerAttackWhatThroughExtractRender is the README's pipe, extract
// | render, in a workflow: each side is safe, and the pipe still works.
func TestRunnerAttackWhatThroughExtractRender(t *testing.T) {
	msg := "The review is done.\n\n```agc\n" + string(hostileAnswer(t)) + "```\n"
	code, block, errOut := runCmd(inActions(nil), msg, "extract", "-")
	if code != ExitOK {
		t.Fatalf("extract: exit %d: %s", code, errOut)
	}
	noForeign(t, "extract", block, errOut)
	code, out, errOut := runCmd(inActions(nil), block, "render", "-")
	if code != ExitOK || !strings.Contains(out, "INJ") {
		t.Fatalf("extract | render: exit %d\n%s\n%s", code, out, errOut)
	}
	noForeign(t, "extract | render", out, errOut)
}

// hostileSARIF is a log whose rule id holds the legacy command form, on
// the pull request's changed line.
func hostileSARIF(t *testing.T, dir string) string {
	t.Helper()
	log := `{"version":"2.1.0","$schema":"https://json.schemastore.org/sarif-2.1.0.json","runs":[{"tool":{"driver":{"name":"lint",
 "rules":[{"id":"` + hostileRule + `","shortDescription":{"text":"` + hostileRule + `"},"defaultConfiguration":{"level":"error"}}]}},
 "results":[{"ruleId":"` + hostileRule + `","message":{"text":"db.Ping is unchecked"},
  "locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/store/db.go"},"region":{"startLine":5}}}]}]}]}`
	p := filepath.Join(dir, "lint.sarif")
	if err := os.WriteFile(p, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRunnerAttackRuleIDThroughGithubDryRun(t *testing.T) {
	srv, root := ghSetup(t)
	file := hostileSARIF(t, root)
	code, out, errOut := runGH(t, ghEnv(srv, "", map[string]string{"GITHUB_ACTIONS": "true"}), "--check", "--review", "--pr", "2", "--dry-run", "--root", root, file)
	if code != ExitOK || !strings.Contains(out, "INJ") {
		t.Fatalf("exit %d, the rule id is not in the dump:\n%s\n%s", code, out, errOut)
	}
	noForeign(t, "github --dry-run", out, errOut)
}

// TestRunnerPipesKeepWorking: JSON on standard output is made safe
// without wrapping, so a program at the other end of a pipe reads the
// same values; text for people is wrapped only under GitHub Actions.
func TestRunnerPipesKeepWorking(t *testing.T) {
	answer := string(hostileAnswer(t))
	code, sarifOut, errOut := runCmd(inActions(nil), answer, "convert", "--to", "sarif", "-")
	if code == ExitUsage || strings.HasPrefix(sarifOut, "::") || strings.Contains(sarifOut, "##[") {
		t.Fatalf("convert --to sarif: exit %d, %s\n%s", code, errOut, sarifOut)
	}
	noForeign(t, "convert --to sarif", sarifOut, errOut)
	code, back, errOut := runCmd(inActions(nil), sarifOut, "convert", "--from", "sarif", "--to", "agc", "-")
	if code == ExitUsage {
		t.Fatalf("convert --from sarif: exit %d, %s", code, errOut)
	}
	r, err := agc.Decode("back", []byte(back), agc.Limits{})
	if err != nil || len(r.Findings) != 1 || !strings.Contains(r.Findings[0].Why, hostileRule) || !strings.Contains(r.Findings[0].What, hostileWhat) {
		t.Fatalf("the answer did not survive convert | convert: %v\n%s", err, back)
	}

	broken := strings.Replace(answer, `"naming"`, `"`+hostileRule+`"`, 1)
	broken = strings.Replace(broken, `"block"`, `"`+hostileRule+`"`, 1)
	code, out, _ := runCmd(inActions(nil), broken, "validate", "--format", "json", "-")
	var vs []struct{ Message string }
	if code != ExitFail || strings.Contains(out, "##[") {
		t.Fatalf("validate --format json: exit %d\n%s", code, out)
	}
	if err := json.Unmarshal([]byte(out), &vs); err != nil || len(vs) == 0 || !strings.Contains(out, `##\u005b`) {
		t.Fatalf("validate --format json is not the same JSON: %v\n%s", err, out)
	}
	quoted := false
	for _, v := range vs {
		quoted = quoted || strings.Contains(v.Message, hostileRule)
	}
	if !quoted {
		t.Errorf("no message quotes the value as it is: %+v", vs)
	}

	code, plain, _ := runCmd(func(string) string { return "" }, answer, "render", "-")
	if code != ExitOK || strings.Contains(plain, "::stop-commands::") || !strings.Contains(plain, "::error file=a,line=1::INJ") {
		t.Errorf("outside GitHub Actions render prints the text as it is:\n%s", plain)
	}
	_, wrapped, _ := runCmd(inActions(nil), answer, "render", "-")
	if first, _, _ := strings.Cut(wrapped, "\n"); !strings.HasPrefix(first, "::stop-commands::") || !strings.Contains(wrapped, plain) {
		t.Errorf("under GitHub Actions render wraps the same text:\n%s", wrapped)
	}
}
