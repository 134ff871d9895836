package repotest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/internal/testkit"
)

// shellcheck is ShellCheck from PATH: scripts/setup.sh installs Debian
// 12's package, 0.9.0-1, where it is missing (GitHub's runners have it).
func shellcheck(t *testing.T) string {
	t.Helper()
	sc, err := exec.LookPath("shellcheck")
	if err != nil {
		testkit.Missing(t, "shellcheck", err)
	}
	if out, err := exec.Command(sc, "--version").Output(); err == nil {
		if _, v, ok := strings.Cut(string(out), "version: "); ok {
			t.Logf("shellcheck %s", strings.SplitN(v, "\n", 2)[0])
		}
	}
	return sc
}

// checkShell runs shellcheck on a bash script, with every optional check
// that applies to scripts this size left at its default.
func checkShell(t *testing.T, sc, name, script string) ([]byte, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), filepath.Base(name))
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	return exec.Command(sc, "--shell=bash", "--severity=style", path).CombinedOutput()
}

// TestShellcheck checks the shell that actionlint does not read: the run
// script of action.yml's step (as the runner gets it, from the YAML), and
// the release's scripts.
func TestShellcheck(t *testing.T) {
	sc := shellcheck(t)
	a := readAction(t, filepath.Join(root, "action.yml"))
	scripts := map[string]string{"action.yml (runs.steps[0].run)": a.Runs.Steps[0].Run}
	for _, f := range []string{"setup.sh", "release-build.sh", "release-record.sh", "smoke.sh"} {
		data, err := os.ReadFile(filepath.Join(root, "scripts", f))
		if err != nil {
			t.Fatal(err)
		}
		scripts["scripts/"+f] = string(data)
	}
	for name, script := range scripts {
		if out, err := checkShell(t, sc, name, script); err != nil {
			t.Errorf("shellcheck %s: %v\n%s", name, err, out)
		}
	}
}

// TestShellcheckCatches proves TestShellcheck can fail: an unquoted
// expansion, the mistake the step is most likely to make, is reported.
func TestShellcheckCatches(t *testing.T) {
	out, err := checkShell(t, shellcheck(t), "bad.sh", "#!/usr/bin/env bash\nrm -rf $RUNNER_TEMP/agc-sarif\n")
	if err == nil || !strings.Contains(string(out), "SC2086") {
		t.Fatalf("shellcheck accepted an unquoted expansion: %v\n%s", err, out)
	}
}
