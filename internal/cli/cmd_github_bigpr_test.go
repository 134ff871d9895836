package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/internal/agctest"
	"github.com/agcgate/agc-action/internal/prfixture"
)

// TestGithubReadsTheDiffGitHubDoesNotGive: GitHub lists big.go without
// its patch (too large); with --root a clone holding base and head, the
// finding on its line 200 is still an inline comment, as in the Action.
// Without a clone it goes to the review body, and the log says why.
func TestGithubReadsTheDiffGitHubDoesNotGive(t *testing.T) {
	answer := filepath.Join(t.TempDir(), "lint.json")
	data, _ := agc.Encode(agctest.Response("lint", agc.Block, agctest.Finding("lint", "big", "big.go:200", agc.Blocking)))
	if err := os.WriteFile(answer, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, root, inline string
	}{
		{"with the clone", "", "big.go:200"},
		{"without a clone", t.TempDir(), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, repo, head := prfixture.BigDiff(t, ghRepo, 7)
			root := tc.root
			if root == "" {
				root = repo.Dir
			}
			env := ghEnv(srv, ghtest.TokenActions, map[string]string{"GITHUB_EVENT_PATH": ""})
			code, _, errs := runGH(t, env, "--review", "--pr", "7", "--sha", head, "--root", root, "lint="+answer)
			if code != ExitOK {
				t.Fatalf("exit %d\n%s", code, errs)
			}
			var inline []string
			for _, c := range srv.PR(ghRepo, 7).Comments {
				inline = append(inline, fmt.Sprintf("%s:%d", c.Path, c.Line))
			}
			if got := strings.Join(inline, " "); got != tc.inline {
				t.Errorf("inline comments %q, want %q\n%s", got, tc.inline, errs)
			}
			if tc.inline == "" && !strings.Contains(errs, "big.go: GitHub listed it without a patch") {
				t.Errorf("the log does not say why big.go's finding is not inline:\n%s", errs)
			}
		})
	}
}

// TestGithubRetryBudget: --retry-budget bounds the waits; out of range
// is a usage error naming the flag.
func TestGithubRetryBudget(t *testing.T) {
	srv, root := ghSetup(t)
	env := ghEnv(srv, ghtest.TokenActions, nil)
	for _, bad := range []string{"0s", "-1s", "7h"} {
		code, _, errs := runGH(t, env, "--check", "--root", root, "--retry-budget", bad, ghPatch)
		if code != ExitUsage || !strings.Contains(errs, "--retry-budget "+strings.TrimSuffix(bad, "0s")) {
			t.Errorf("--retry-budget %s: exit %d (want %d)\n%s", bad, code, ExitUsage, errs)
		}
	}
}

// TestGithubRateLimitPastTheRetryBudget: GitHub rate-limits the check run
// for a minute; with --retry-budget 10s the command does not wait, sends
// nothing more, names what it did not deliver, and exits 2.
func TestGithubRateLimitPastTheRetryBudget(t *testing.T) {
	srv, root := ghSetup(t)
	srv.InjectWrite(1, ghtest.SecondaryRateLimit(429, 60))
	env := ghEnv(srv, ghtest.TokenActions, nil)
	code, _, errs := runGH(t, env, "--check", "--root", root, "--retry-budget", "10s", ghPatch)
	if code != ExitUsage || !strings.Contains(errs, "not delivered") {
		t.Errorf("exit %d (want %d), and the log should name what was not delivered:\n%s", code, ExitUsage, errs)
	}
	if n := srv.Writes(); n != 1 {
		t.Errorf("%d writes sent, want the one refused", n)
	}
}
