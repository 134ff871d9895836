package repotest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/internal/testkit"
)

const root = "../.."

func actionlint(t *testing.T) string {
	t.Helper()
	return testkit.File(t, "actionlint 1.7.12", "bin", "actionlint")
}

// lint runs actionlint on files inside dir, a repository root.
func lint(t *testing.T, dir string, files ...string) error {
	t.Helper()
	cmd := exec.Command(actionlint(t), append([]string{"-no-color"}, files...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("actionlint %s: %v\n%s", strings.Join(files, " "), err, out)
	}
	return nil
}

func run(t *testing.T, dir string, files ...string) {
	t.Helper()
	if err := lint(t, dir, files...); err != nil {
		t.Error(err)
	}
}

// TestWorkflows lints .github/workflows, including the self-test that
// uses the Action from the checkout (actionlint checks its inputs against
// action.yml).
func TestWorkflows(t *testing.T) {
	files := testkit.Glob(t, filepath.Join(root, ".github/workflows/*.yml"))
	rel := make([]string, len(files))
	for i, f := range files {
		rel[i], _ = filepath.Rel(root, f)
	}
	run(t, root, rel...)
}

var yamlBlock = regexp.MustCompile("(?s)(`{3,})ya?ml\n(.*?)\n`{3,}")

// TestREADMEWorkflows lints every workflow the README shows, with
// uses: agcgate/agc-action@v1 pointing at this checkout's action.yml so
// that actionlint checks the inputs the examples pass.
func TestREADMEWorkflows(t *testing.T) {
	lintShown(t, "README.md", 3, "the three common cases")
}

// TestManyGatesWorkflows lints the workflows docs/many-gates.md shows:
// one job per gate, and gates that upload their answers for one job
// that posts them all.
func TestManyGatesWorkflows(t *testing.T) {
	lintShown(t, "docs/many-gates.md", 2, "one job per gate, and answers posted by one job")
}

// lintShown lints the workflows that use the Action in doc, a Markdown
// file of the repository, against this checkout's action.yml; doc must
// show at least least of them (what).
func lintShown(t *testing.T, doc string, least int, what string) {
	t.Helper()
	text, err := os.ReadFile(filepath.Join(root, doc))
	if err != nil {
		t.Fatal(err)
	}
	action, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := withAction(t, action)
	var files []string
	for i, m := range yamlBlock.FindAllStringSubmatch(string(text), -1) {
		wf := m[2]
		if !strings.Contains(wf, "agcgate/agc-action@v1") {
			continue
		}
		wf = strings.ReplaceAll(wf, "agcgate/agc-action@v1", "./agc-action")
		name := filepath.Join(".github/workflows", "shown-"+string(rune('a'+i))+".yml")
		if err := os.WriteFile(filepath.Join(dir, name), []byte(wf), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	if len(files) < least {
		t.Fatalf("%s shows %d workflows using the Action, want %s", doc, len(files), what)
	}
	run(t, dir, files...)
}

// withAction makes a repository holding action.yml at ./agc-action (git
// init: actionlint resolves local actions from the repository root).
func withAction(t *testing.T, action []byte) string {
	dir := t.TempDir()
	for _, d := range []string{".github/workflows", "agc-action"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "agc-action/action.yml"), action, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	return dir
}

// TestActionlintCatchesBadInputs proves the README check can fail: an
// input action.yml does not define is an error.
func TestActionlintCatchesBadInputs(t *testing.T) {
	action, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := withAction(t, action)
	wf := "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ./agc-action\n        with:\n          fail-when: block\n"
	if err := os.WriteFile(filepath.Join(dir, ".github/workflows/bad.yml"), []byte(wf), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := lint(t, dir, ".github/workflows/bad.yml"); err == nil || !strings.Contains(err.Error(), `input "fail-when" is not defined`) {
		t.Fatalf("actionlint must reject an unknown input, got %v", err)
	}
}
