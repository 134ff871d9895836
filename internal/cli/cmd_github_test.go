package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/internal/prfixture"
)

// The pull request the github tests deliver to (prfixture).
const (
	ghRepo    = prfixture.Repo
	ghHeadSHA = prfixture.HeadSHA
	ghEvent   = prfixture.Event
	ghPatch   = prfixture.Patch
)

func ghSetup(t *testing.T) (*ghtest.Server, string) { return prfixture.Setup(t) }

func ghEnv(srv *ghtest.Server, token string, extra map[string]string) func(string) string {
	env := map[string]string{
		"GITHUB_REPOSITORY": ghRepo, "GITHUB_EVENT_PATH": ghEvent, "GITHUB_SHA": "0000000000000000000000000000000000000000",
		"GITHUB_TOKEN": token, "GITHUB_API_URL": srv.URL(), "GITHUB_GRAPHQL_URL": srv.GraphQLURL(),
	}
	for k, v := range extra {
		env[k] = v
	}
	return func(k string) string { return env[k] }
}

func runGH(t *testing.T, getenv func(string) string, args ...string) (int, string, string) {
	t.Helper()
	return envCall(t, getenv, runGithub, args...)
}

func TestGithubDeliversFromTheActionsEnvironment(t *testing.T) {
	srv, root := ghSetup(t)
	env := ghEnv(srv, ghtest.TokenActions, nil)
	args := []string{"--review", "--check", "--status", "--upload-sarif", "--poll-delay=1ms", "--root", root, ghPatch}
	code, _, stderr := runGH(t, env, args...)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	srv.Snapshot(func(prs map[string]*ghtest.PullRequest, runs []*ghtest.CheckRun, sts []*ghtest.Status, ups []*ghtest.SARIFUpload) {
		pr := prs[ghRepo+"#2"]
		// The finding off the changed lines is listed in the review's body,
		// not in a comment of its own (docs/github.md, "The ceiling").
		if len(pr.Reviews) != 1 || len(pr.Comments) != 1 || !strings.Contains(pr.Reviews[0].Body, "dbUrl") {
			t.Fatalf("%d reviews, %d comments; want 1 review listing dbUrl, and an inline comment", len(pr.Reviews), len(pr.Comments))
		}
		inline := pr.Comments[0]
		if inline.SubjectType != "line" {
			t.Fatalf("want one inline comment: %+v", pr.Comments)
		}
		if inline.Line != 5 || !strings.Contains(inline.Body, "```suggestion\n\tif err := db.Ping(); err != nil {") {
			t.Errorf("inline comment at line %d:\n%s", inline.Line, inline.Body)
		}
		if len(runs) != 1 || runs[0].Name != "agc/go-lint" || runs[0].Conclusion != "failure" || runs[0].HeadSHA != ghHeadSHA {
			t.Errorf("check runs %+v", runs)
		}
		if len(sts) != 1 || sts[0].Context != "agc/go-lint" || sts[0].State != "failure" {
			t.Errorf("statuses %+v", sts)
		}
		if len(ups) != 1 || ups[0].Ref != "refs/pull/2/head" || ups[0].Status != "complete" || !strings.Contains(string(ups[0].SARIF), "go-lint") {
			t.Errorf("uploads %+v", ups)
		}
	})
	srv.ResetCounts()
	code, _, stderr = runGH(t, env, args...)
	if code != ExitOK || !strings.Contains(stderr, "0 new comments in 0 reviews, 0 edited, 1 unchanged") {
		t.Errorf("rerun exit %d: %s", code, stderr)
	}
	if n := srv.Counts()["pulls/create-review"]; n != 0 {
		t.Errorf("rerun created %d reviews", n)
	}
}

func TestGithubSARIFInput(t *testing.T) {
	srv, root := ghSetup(t)
	log := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"vet","rules":[{"id":"unusedresult"}]}},
	  "results":[{"ruleId":"unusedresult","level":"error","message":{"text":"result of Ping is not used"},
	    "locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/store/db.go"},"region":{"startLine":5}}}]}]}]}`
	file := filepath.Join(t.TempDir(), "vet.sarif")
	if err := os.WriteFile(file, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runGH(t, ghEnv(srv, ghtest.TokenActions, nil), "--review", "--root", root, file)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	srv.Snapshot(func(prs map[string]*ghtest.PullRequest, _ []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		cs := prs[ghRepo+"#2"].Comments
		if len(cs) != 1 || cs[0].Line != 5 || !strings.Contains(cs[0].Body, "Ping is not used") {
			t.Errorf("comments %+v", cs)
		}
	})
}

func TestGithubReadOnlyTokenDegrades(t *testing.T) {
	srv, root := ghSetup(t)
	summary := filepath.Join(t.TempDir(), "summary.md")
	code, stdout, stderr := runGH(t, ghEnv(srv, ghtest.TokenReadOnly, map[string]string{"GITHUB_STEP_SUMMARY": summary}),
		"--review", "--check", "--root", root, ghPatch)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "::error endLine=5,file=src/store/db.go,line=5,") || !strings.Contains(stdout, "::warning ") {
		t.Errorf("workflow annotations:\n%s", stdout)
	}
	data, err := os.ReadFile(summary)
	if err != nil || !strings.Contains(string(data), "cannot write") {
		t.Errorf("job summary %q: %v", data, err)
	}
	if !strings.Contains(stderr, "cannot write") {
		t.Errorf("stderr does not say it degraded: %s", stderr)
	}
}

func TestGithubDryRunWithoutToken(t *testing.T) {
	srv, root := ghSetup(t)
	code, stdout, stderr := runGH(t, ghEnv(srv, "", nil), "--check", "--status", "--dry-run", "--root", root, ghPatch)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "POST /repos/Codertocat/Hello-World/check-runs") || !strings.Contains(stdout, "POST /repos/Codertocat/Hello-World/statuses/"+ghHeadSHA) {
		t.Errorf("dry run output:\n%s", stdout)
	}
	if len(srv.Counts()) != 0 {
		t.Errorf("dry run reached the server: %v", srv.Counts())
	}
}

func TestGithubUsage(t *testing.T) {
	srv, _ := ghSetup(t)
	tests := []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"no repository", map[string]string{"GITHUB_REPOSITORY": ""}, []string{ghPatch}, "not OWNER/NAME"},
		{"bad filter mode", nil, []string{"--filter-mode", "all", ghPatch}, "must be one of"},
		{"no files", nil, nil, "at least one FILE"},
		{"no token", map[string]string{"GITHUB_TOKEN": ""}, []string{ghPatch}, "GITHUB_TOKEN"},
		{"review without a pull request", map[string]string{"GITHUB_EVENT_PATH": "../../fixtures/webhooks/push.json"}, []string{"--review", ghPatch}, "--review needs --pr"},
		{"unreadable file", nil, []string{"--check", "no/such/file.json"}, "no such file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runGH(t, ghEnv(srv, ghtest.TokenActions, tc.env), tc.args...)
			if code != ExitUsage || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, ExitUsage, tc.want)
			}
		})
	}
}

// TestGithubSkipsABranchDeletion: a push that deletes a branch has no
// commit to report on (GITHUB_SHA is then the default branch's head);
// github skips with a notice and posts nothing, as the Action does,
// instead of failing the workflow.
func TestGithubSkipsABranchDeletion(t *testing.T) {
	srv, _ := ghSetup(t)
	code, stdout, stderr := runGH(t, ghEnv(srv, ghtest.TokenActions, map[string]string{"GITHUB_EVENT_PATH": "../../fixtures/webhooks/push.deleted.json"}), ghPatch)
	if code != ExitOK || !strings.Contains(stderr, "skipped: this push deleted") {
		t.Errorf("exit %d, stdout %q, stderr %q; want 0 and a notice", code, stdout, stderr)
	}
	if n := len(srv.Counts()); n != 0 {
		t.Errorf("requests sent for a deletion: %v", srv.Counts())
	}
}
