package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/ghapi/ghtest"
)

// TestGithubRefusesUnsafeGateID: agc-sarif github posts nothing for a gate
// id outside the safe set, from an AGC answer (placed at /gate/id) or from
// two SARIF tools whose names become one id, and exits 2 (issue 11: a gate
// id with a line break became a check-run name with a line break).
func TestGithubRefusesUnsafeGateID(t *testing.T) {
	patch, err := os.ReadFile(ghPatch)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"newline", map[string]string{"a.json": strings.Replace(string(patch), `"id": "go-lint"`, `"id": "go-lint\n::error::INJECTED"`, 1)},
			`a.json:3:19: /gate/id: action.gate-id: gate id "go-lint\n::error::INJECTED" holds '\n'`},
		{"array", map[string]string{"a.json": "[" + string(patch) + "," + strings.Replace(string(patch), `"id": "go-lint"`, `"id": "Secrets"`, 1) + "]"},
			`/1/gate/id: action.gate-id: gate id "Secrets" holds 'S' (upper case)`},
		{"clash", map[string]string{
			"a.sarif": `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"ESLint"}},"results":[]}]}`,
			"b.sarif": `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"eslint"}},"results":[]}]}`},
			`action.gate-id: the SARIF tools "ESLint", "eslint" all become gate id "eslint"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, root := ghSetup(t)
			var args []string
			for name, data := range c.files {
				p := filepath.Join(root, name)
				if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
				args = append(args, p)
			}
			if len(args) == 2 && args[0] > args[1] {
				args[0], args[1] = args[1], args[0]
			}
			code, _, stderr := runGH(t, ghEnv(srv, ghtest.TokenActions, nil), append([]string{"--check", "--root", root}, args...)...)
			if code != ExitUsage || !strings.Contains(stderr, c.want) {
				t.Fatalf("exit %d, want 2 with %q:\n%s", code, c.want, stderr)
			}
			if n := len(srv.Log()); n != 0 {
				t.Errorf("%d requests, want none: %v", n, srv.Log())
			}
		})
	}
}

// TestGithubRefusesAsTheActionDoes: agc-sarif github collects its inputs
// as the Action does (package collect), so it refuses what the Action
// refuses, and posts nothing: a gate answering twice, an answer from an
// unpaired file for a gate paired with a file of its own, a paired log
// without exactly one run.
func TestGithubRefusesAsTheActionDoes(t *testing.T) {
	patch, err := os.ReadFile(ghPatch)
	if err != nil {
		t.Fatal(err)
	}
	twoRuns := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"a"}},"results":[]},{"tool":{"driver":{"name":"b"}},"results":[]}]}`
	cases := []struct {
		name string
		args []string // FILE or GATE=FILE, files under the root
		want string
	}{
		{"twice", []string{"a.json", "b.json"}, `gate "go-lint" already answered in`},
		{"paired elsewhere", []string{"go-lint=a.json", "b.json"}, "pairs gate go-lint with files of its own"},
		{"paired log of two runs", []string{"lint=two.sarif"}, "/runs: " + "action.pairing"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, root := ghSetup(t)
			files := map[string]string{"a.json": string(patch), "b.json": string(patch), "two.sarif": twoRuns}
			var args []string
			for _, a := range c.args {
				pair, name, _ := strings.Cut(a, "=")
				if name == "" {
					pair, name = "", a
				}
				p := filepath.Join(root, name)
				if err := os.WriteFile(p, []byte(files[name]), 0o644); err != nil {
					t.Fatal(err)
				}
				if pair != "" {
					p = pair + "=" + p
				}
				args = append(args, p)
			}
			code, _, stderr := runGH(t, ghEnv(srv, ghtest.TokenActions, nil), append([]string{"--check", "--root", root}, args...)...)
			if code != ExitUsage || !strings.Contains(stderr, c.want) {
				t.Fatalf("exit %d, want 2 with %q:\n%s", code, c.want, stderr)
			}
			if n := len(srv.Log()); n != 0 {
				t.Errorf("%d requests, want none: %v", n, srv.Log())
			}
		})
	}
}
