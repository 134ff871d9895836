package ghrun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const webhooks = "../../fixtures/webhooks/"

// TestRead reads GitHub's real webhook payloads as the Action, github and
// carry --github see them (docs/action.md, 1).
func TestRead(t *testing.T) {
	const head = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"
	for _, tc := range []struct {
		event, payload string
		want           Context
	}{
		{"pull_request", "pull_request.synchronize.json", Context{Action: "synchronize", PR: 2, HeadSHA: head,
			BeforeSHA: "f95f852bd8fca8fcc58a9a2d6c842781e32a215e", Ref: "refs/pull/2/head", BaseRef: "master", BaseSHA: "f95f852bd8fca8fcc58a9a2d6c842781e32a215e"}},
		{"pull_request", "pull_request.opened.json", Context{Action: "opened", PR: 2, HeadSHA: head, Ref: "refs/pull/2/head",
			BaseRef: "master", BaseSHA: "f95f852bd8fca8fcc58a9a2d6c842781e32a215e"}},
		{"push", "push.json", Context{HeadSHA: "6113728f27ae82c7b1a177c8d03f9e96e0adf246", Ref: "refs/env"}}, // a new tag: no before
		{"merge_group", "merge_group.json", Context{Action: "checks_requested", HeadSHA: "2ffea6db159f6b6c47a24e778fb9ef40cf6b1c7d",
			Ref: "refs/heads/gh-readonly-queue/main/pr-104-929f8209d40f77f4abc622a499c93a83babdbe64", BaseRef: "main", QueuedPR: 104}},
		{"workflow_run", "workflow_run.completed.json", Context{Action: "completed", HeadSHA: "3484a3fb816e0859fd6e1cea078d76385ff50625",
			Ref: "refs/heads/master"}}, // the listed pull request's head is not the run's commit
		// check_suite runs on the default branch (GITHUB_SHA); the suite is
		// about its head_sha, the head of pull request 2.
		{"check_suite", "check_suite.rerequested.json", Context{Action: "rerequested", PR: 2, HeadSHA: head, Ref: "refs/pull/2/head", BaseRef: "master"}},
		// check_run too: a re-run of one check is about its head_sha, not
		// the default branch's head the workflow runs on.
		{"check_run", "check_run.rerequested.json", Context{Action: "rerequested", HeadSHA: "d6fde92930d4715a2b49857d24b940956b26d2d3", Ref: "refs/heads/master"}},
		// A deletion push has no commit: GITHUB_SHA is the default branch's.
		{"push", "push.deleted.json", Context{Deleted: true, Ref: "refs/env"}},
		{"push", "push.branch.json", Context{HeadSHA: "6113728f27ae82c7b1a177c8d03f9e96e0adf246", Ref: "refs/env", Branch: "master", BaseRef: "master"}},
		{"workflow_dispatch", "workflow_dispatch.json", Context{HeadSHA: "env-sha", Ref: "refs/env"}},
	} {
		env := map[string]string{"GITHUB_EVENT_NAME": tc.event, "GITHUB_EVENT_PATH": webhooks + tc.payload,
			"GITHUB_REPOSITORY": "Codertocat/Hello-World", "GITHUB_SHA": "env-sha", "GITHUB_REF": "refs/env"}
		got, err := Read(func(k string) string { return env[k] })
		tc.want.Event, tc.want.Repository = tc.event, "Codertocat/Hello-World"
		if err != nil || got != tc.want {
			t.Errorf("%s:\n got %+v, %v\nwant %+v", tc.payload, got, err, tc.want)
		}
	}
}

func TestQueuedPR(t *testing.T) {
	for ref, want := range map[string]int{
		"refs/heads/gh-readonly-queue/main/pr-104-929f8209d40f77f4abc622a499c93a83babdbe64": 104,
		"refs/heads/gh-readonly-queue/main/pr-7-abc":                                        7,
		"refs/heads/gh-readonly-queue/other/pr-7-abc":                                       0, // another base
		"refs/heads/gh-readonly-queue/main/pr-07-abc":                                       0,
		"refs/heads/gh-readonly-queue/main/pr-x-abc":                                        0,
		"refs/heads/gh-readonly-queue/main/pr-7":                                            0,
		"refs/heads/main":                                                                   0,
	} {
		if got := QueuedPR(ref, "main"); got != want {
			t.Errorf("QueuedPR(%q) = %d, want %d", ref, got, want)
		}
	}
	if got := QueuedPR("refs/heads/gh-readonly-queue/release/1.x/pr-3-abc", "release/1.x"); got != 3 {
		t.Errorf("a base with a slash: %d", got)
	}
}

func TestReadWithoutOrWithABadPayload(t *testing.T) {
	got, err := Read(func(k string) string { return map[string]string{"GITHUB_SHA": "s"}[k] })
	if err != nil || got != (Context{HeadSHA: "s"}) {
		t.Errorf("a local run: %+v, %v", got, err)
	}
	bad := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(bad, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{bad: "event payload", filepath.Join(t.TempDir(), "missing.json"): "read the event payload"} {
		if _, err := Read(func(k string) string { return map[string]string{"GITHUB_EVENT_PATH": path}[k] }); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", path, err, want)
		}
	}
}

func TestSplitRepoAndRunURL(t *testing.T) {
	if o, n, err := SplitRepo("--repo", "octo/hello"); o != "octo" || n != "hello" || err != nil {
		t.Errorf("SplitRepo = %q %q %v", o, n, err)
	}
	for _, bad := range []string{"", "octo", "octo/", "/hello", "octo/hello/x"} {
		if _, _, err := SplitRepo("--repository", bad); err == nil || !strings.HasPrefix(err.Error(), "--repository ") {
			t.Errorf("SplitRepo(%q): %v", bad, err)
		}
	}
	env := map[string]string{"GITHUB_SERVER_URL": "https://github.com/", "GITHUB_RUN_ID": "42"}
	if got := RunURL(func(k string) string { return env[k] }, "octo/hello"); got != "https://github.com/octo/hello/actions/runs/42" {
		t.Errorf("RunURL = %q", got)
	}
	if got := RunURL(func(string) string { return "" }, "octo/hello"); got != "" {
		t.Errorf("RunURL outside a run = %q", got)
	}
}
