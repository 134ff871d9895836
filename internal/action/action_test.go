package action

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/internal/prfixture"
)

// actionRunner runs the Action as the runner does: INPUT_*
// variables, the event payload, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY
// files, and the API at the emulator.
type actionRunner struct {
	t       testing.TB
	env     map[string]string
	output  string
	summary string
	sleeps  ghtest.Sleeps // the client's waits, recorded instead of slept
}

func newActionRunner(t testing.TB, srv *ghtest.Server, root, event, eventFile string) *actionRunner {
	tmp := t.TempDir()
	r := &actionRunner{t: t, output: filepath.Join(tmp, "output"), summary: filepath.Join(tmp, "summary")}
	r.env = map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": prfixture.Repo, "GITHUB_EVENT_NAME": event,
		"GITHUB_EVENT_PATH": eventFile, "GITHUB_SHA": prfixture.HeadSHA, "GITHUB_WORKSPACE": root,
		"GITHUB_OUTPUT": r.output, "GITHUB_STEP_SUMMARY": r.summary, "RUNNER_TEMP": tmp,
		"GITHUB_SERVER_URL": "https://github.com", "GITHUB_RUN_ID": "42",
		"INPUT_TOKEN": ghtest.TokenActions,
	}
	if srv != nil {
		r.env["GITHUB_API_URL"], r.env["GITHUB_GRAPHQL_URL"] = srv.URL(), srv.GraphQLURL()
	}
	return r
}

func (r *actionRunner) input(name, value string) *actionRunner {
	r.env["INPUT_"+strings.ToUpper(name)] = value
	return r
}

func (r *actionRunner) run() (code int, stdout string) {
	var out, errb bytes.Buffer
	code = Main(context.Background(), &cmdenv.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Getenv: func(k string) string { return r.env[k] }, Version: "test", Sleep: r.sleeps.Sleep})
	if errb.Len() > 0 {
		r.t.Logf("stderr: %s", errb.String())
	}
	return code, out.String()
}

// outputs parses GITHUB_OUTPUT's name<<delimiter blocks.
func (r *actionRunner) outputs() map[string]string {
	data, _ := os.ReadFile(r.output)
	out := map[string]string{}
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		name, delim, ok := strings.Cut(lines[i], "<<")
		if !ok {
			continue
		}
		var val []string
		for i++; i < len(lines) && lines[i] != delim; i++ {
			val = append(val, lines[i])
		}
		out[name] = strings.Join(val, "\n")
	}
	return out
}

func (r *actionRunner) summaryText() string {
	data, _ := os.ReadFile(r.summary)
	return string(data)
}

// copyFixture puts a fixture into the workspace.
func copyFixture(t *testing.T, root, from, to string) {
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, to)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestActionPullRequestBlock(t *testing.T) {
	srv, root := prfixture.Setup(t)
	copyFixture(t, root, prfixture.Patch, "agc-out/lint.json")
	r := newActionRunner(t, srv, root, "pull_request", prfixture.Event).input("agc", "agc-out/*.json")
	code, stdout := r.run()
	if code != cmdenv.ExitFail {
		t.Fatalf("exit %d, want %d (fail-on block)\n%s", code, cmdenv.ExitFail, stdout)
	}
	out := r.outputs()
	if out["verdict"] != "block" || out["blocking"] != "1" || out["advisory"] != "1" || out["carried"] != "false" {
		t.Errorf("outputs %v", out)
	}
	if _, err := os.Stat(out["sarif-file"]); err != nil {
		t.Errorf("sarif-file: %v", err)
	}
	sum := r.summaryText()
	for _, want := range []string{"## AGC gates: block", "| agc/go-lint | block | 1 | 1 | 1 of 3 | no |", "| agc/agc-validate | allow | 0 | 0 | 1 of 3 | no |"} {
		if !strings.Contains(sum, want) {
			t.Errorf("summary lacks %q:\n%s", want, sum)
		}
	}
	srv.Snapshot(func(prs map[string]*ghtest.PullRequest, runs []*ghtest.CheckRun, sts []*ghtest.Status, ups []*ghtest.SARIFUpload) {
		if len(runs) != 2 {
			t.Fatalf("%d check runs, want agc/go-lint and agc/agc-validate", len(runs))
		}
		if pr := prs[prfixture.Repo+"#2"]; len(pr.Reviews) != 1 {
			t.Errorf("%d reviews", len(pr.Reviews))
		}
	})
}

const webhooks = "../../fixtures/webhooks/"

// runsOn returns the check runs the emulator holds for a commit.
func runsOn(srv *ghtest.Server, sha string) map[string]*ghtest.CheckRun {
	out := map[string]*ghtest.CheckRun{}
	srv.Snapshot(func(_ map[string]*ghtest.PullRequest, runs []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		for _, r := range runs {
			if r.HeadSHA == sha {
				out[r.Name] = r
			}
		}
	})
	return out
}

// writes counts the requests that changed the emulator's state.
func writes(srv *ghtest.Server) int {
	n := 0
	for _, l := range srv.Log() {
		if !strings.HasPrefix(l, "GET ") && !strings.Contains(l, "graphql") {
			n++
		}
	}
	return n
}

func TestActionEvents(t *testing.T) {
	cases := []struct {
		name, event, payload, sha string
		annotations               bool // no pull request: findings as annotations
	}{
		{"push", "push", "push.json", "6113728f27ae82c7b1a177c8d03f9e96e0adf246", true},
		{"merge_group", "merge_group", "merge_group.json", "2ffea6db159f6b6c47a24e778fb9ef40cf6b1c7d", true},
		{"workflow_dispatch", "workflow_dispatch", "workflow_dispatch.json", prfixture.HeadSHA, true},
		{"pull_request opened", "pull_request", "pull_request.opened.json", "", false},
		{"pull_request reopened", "pull_request", "pull_request.reopened.json", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, root := prfixture.Setup(t)
			ev, err := srv.SetHeadFromEvent(webhooks+c.payload, []ghtest.File{{Path: "src/store/db.go", Base: prfixture.DBBase, Head: prfixture.DBHead}})
			if err != nil && !c.annotations {
				t.Fatal(err)
			}
			sha := c.sha
			if sha == "" {
				sha = ev.HeadSHA
			}
			copyFixture(t, root, prfixture.Patch, "out/lint.json")
			r := newActionRunner(t, srv, root, c.event, webhooks+c.payload).input("agc", "out/lint.json").input("fail-on", "never")
			code, stdout := r.run()
			if code != cmdenv.ExitOK {
				t.Fatalf("exit %d\n%s", code, stdout)
			}
			runs := runsOn(srv, sha)
			if runs["agc/go-lint"] == nil || runs["agc/go-lint"].Conclusion != "failure" {
				t.Fatalf("no failing agc/go-lint check run on %s: %v\n%v", sha, runs, srv.Log())
			}
			hasAnnotation := strings.Contains(stdout, "file=src/store/db.go,line=")
			if hasAnnotation != c.annotations {
				t.Errorf("annotations printed: %v, want %v\n%s", hasAnnotation, c.annotations, stdout)
			}
			if out := r.outputs(); out["verdict"] != "block" {
				t.Errorf("outputs %v", out)
			}
		})
	}
}

// TestActionForkReadOnly: a fork's pull request gets a read-only token;
// the Action degrades to annotations and the summary, reports the verdict,
// and still fails on block.
func TestActionForkReadOnly(t *testing.T) {
	srv, root := prfixture.Setup(t)
	copyFixture(t, root, prfixture.Patch, "out/lint.json")
	r := newActionRunner(t, srv, root, "pull_request", prfixture.Event).input("agc", "out/lint.json").input("token", ghtest.TokenReadOnly)
	code, stdout := r.run()
	if code != cmdenv.ExitFail {
		t.Fatalf("exit %d, want %d\n%s", code, cmdenv.ExitFail, stdout)
	}
	if !strings.Contains(stdout, "file=src/store/db.go,line=") || !strings.Contains(stdout, "::warning file=src/store/db.go") {
		t.Errorf("findings must become annotations:\n%s", stdout)
	}
	if !strings.Contains(r.summaryText(), "The token cannot write to this repository") {
		t.Errorf("summary must say why nothing was posted:\n%s", r.summaryText())
	}
	if out := r.outputs(); out["verdict"] != "block" || out["blocking"] != "1" {
		t.Errorf("outputs %v", out)
	}
	if runs := runsOn(srv, prfixture.HeadSHA); len(runs) != 0 {
		t.Errorf("a read-only token created check runs: %v", runs)
	}
}

// TestActionPreview: preview runs everything, writes nothing and never
// fails (AGC §11).
func TestActionPreview(t *testing.T) {
	srv, root := prfixture.Setup(t)
	copyFixture(t, root, prfixture.Patch, "out/lint.json")
	r := newActionRunner(t, srv, root, "pull_request", prfixture.Event).input("agc", "out/lint.json").input("preview", "true")
	code, stdout := r.run()
	if code != cmdenv.ExitOK {
		t.Fatalf("exit %d, want 0 in preview\n%s", code, stdout)
	}
	if n := writes(srv); n != 0 {
		t.Errorf("preview wrote %d times: %v", n, srv.Log())
	}
	if !strings.Contains(stdout, "POST ") || !strings.Contains(stdout, "/check-runs") {
		t.Errorf("preview must print what it would post:\n%s", stdout)
	}
	if !strings.Contains(r.summaryText(), "preview: nothing was written to GitHub") {
		t.Errorf("summary:\n%s", r.summaryText())
	}
	if out := r.outputs(); out["verdict"] != "block" {
		t.Errorf("outputs %v", out)
	}
}

func TestActionBadInputs(t *testing.T) {
	cases := []struct {
		name   string
		inputs map[string]string
		want   string
	}{
		{"nothing given", map[string]string{}, `input "agc": give the gates' answers`},
		{"bad fail-on", map[string]string{"agc": "x.json", "fail-on": "sometimes"}, `input "fail-on": "sometimes" is not one of block, escalate, never`},
		{"no match", map[string]string{"agc": "nothing/*.json"}, `pattern "nothing/*.json" matches no file`},
		{"bad pr", map[string]string{"agc": "x.json", "pull-request": "two"}, `input "pull-request"`},
		{"bad budget", map[string]string{"agc": "x.json", "budget": "0"}, `input "budget": "0" is not a number of rounds`},
		{"bad retry-budget", map[string]string{"agc": "x.json", "retry-budget": "5m"}, `input "retry-budget": "5m" is not a number of seconds`},
		{"no retry-budget", map[string]string{"agc": "x.json", "retry-budget": "0"}, `input "retry-budget": "0" is not a number of seconds`},
		{"escalate-to with a space", map[string]string{"agc": "x.json", "escalate-to": "octo cat"}, `input "escalate-to": "octo cat" is neither a GitHub login`},
		{"escalate-to a nested team", map[string]string{"agc": "x.json", "escalate-to": "acme/a/b"}, `input "escalate-to"`},
		{"escalate-to with markup", map[string]string{"agc": "x.json", "escalate-to": "x](http://evil)"}, `input "escalate-to"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newActionRunner(t, nil, t.TempDir(), "push", webhooks+"push.json")
			for k, v := range c.inputs {
				r.input(k, v)
			}
			code, stdout := r.run()
			if code != cmdenv.ExitUsage || !strings.Contains(stdout, "::error title=agc-action::") || !strings.Contains(stdout, c.want) {
				t.Errorf("exit %d, want 2 with %q:\n%s", code, c.want, stdout)
			}
		})
	}
}

// TestActionInvalidAnswerFailsItsOwnCheck: an answer that breaks the
// contract is still delivered, and agc/agc-validate fails.
func TestActionInvalidAnswerFailsItsOwnCheck(t *testing.T) {
	srv, root := prfixture.Setup(t)
	copyFixture(t, root, "../../fixtures/agc/rules/fail.V6.allow-no-blocking.json", "out/bad.json")
	copyFixture(t, root, "../../extract/testdata/two-blocks.md", "out/review.md")
	r := newActionRunner(t, srv, root, "pull_request", prfixture.Event).input("agc", "out/*")
	code, stdout := r.run()
	if code != cmdenv.ExitFail {
		t.Fatalf("exit %d\n%s", code, stdout)
	}
	runs := runsOn(srv, prfixture.HeadSHA)
	v := runs["agc/agc-validate"]
	if v == nil || v.Conclusion != "failure" {
		t.Fatalf("agc/agc-validate: %+v", v)
	}
	if runs["agc/go-lint"] == nil {
		t.Errorf("the invalid answer itself must still be delivered: %v", runs)
	}
	for _, want := range []string{"V6.allow-no-blocking", "out/review.md"} {
		if !strings.Contains(v.Summary+v.Text, want) {
			t.Errorf("agc-validate's check run does not mention %s", want)
		}
	}
}

// TestActionWorkflowRunFork: the safe fork pattern. The privileged
// workflow_run workflow reports on the run's commit, and on a pull request
// only when one is named: the payload's pull_requests lists every open one
// from the branch, whatever its head (here PR #2's head is not the run's).
func TestActionWorkflowRunFork(t *testing.T) {
	const runSHA = "3484a3fb816e0859fd6e1cea078d76385ff50625" // workflow_run.head_sha of the payload
	srv, root := prfixture.Setup(t)
	copyFixture(t, root, prfixture.Patch, "artifact/lint.json")
	r := newActionRunner(t, srv, root, "workflow_run", webhooks+"workflow_run.completed.json").input("agc", "artifact/*.json")
	if code, stdout := r.run(); code != cmdenv.ExitFail {
		t.Fatalf("exit %d\n%s", code, stdout)
	}
	if runs := runsOn(srv, runSHA); runs["agc/go-lint"] == nil {
		t.Fatalf("no check run on the run's commit %s: %v", runSHA, srv.Log())
	}
	if pr := srv.PR(prfixture.Repo, 2); len(pr.Reviews) != 0 {
		t.Fatalf("a review on a pull request whose head is not the run's commit: %+v", pr.Reviews)
	}

	// The unprivileged workflow passed the pull request and its head on.
	r = newActionRunner(t, srv, root, "workflow_run", webhooks+"workflow_run.completed.json").
		input("agc", "artifact/*.json").input("pull-request", "2").input("sha", prfixture.HeadSHA)
	if code, stdout := r.run(); code != cmdenv.ExitFail {
		t.Fatalf("exit %d\n%s", code, stdout)
	}
	if pr := srv.PR(prfixture.Repo, 2); len(pr.Reviews) != 1 || pr.Reviews[0].CommitID != prfixture.HeadSHA {
		t.Errorf("want one review on the pull request's head: %+v", pr.Reviews)
	}
}

// TestActionUploadFailureKeepsChecks: code scanning refusing the upload
// does not keep the check runs and the review from being posted.
func TestActionUploadFailureKeepsChecks(t *testing.T) {
	for _, c := range []struct {
		name  string
		fault ghtest.Fault
		code  int
	}{
		{"read-only", ghtest.Fault{Status: 403, Message: "Resource not accessible by integration"}, cmdenv.ExitFail},
		{"advanced security off", ghtest.Fault{Status: 403, Message: "Advanced Security must be enabled for this repository to use code scanning."}, cmdenv.ExitUsage},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv, root := prfixture.Setup(t)
			srv.Inject("code-scanning/upload-sarif", c.fault)
			copyFixture(t, root, prfixture.Patch, "out/lint.json")
			r := newActionRunner(t, srv, root, "pull_request", prfixture.Event).input("agc", "out/lint.json").input("upload-sarif", "true")
			code, stdout := r.run()
			if code != c.code {
				t.Fatalf("exit %d, want %d\n%s", code, c.code, stdout)
			}
			if runs := runsOn(srv, prfixture.HeadSHA); runs["agc/go-lint"] == nil {
				t.Fatalf("no check run: %v", srv.Log())
			}
			if pr := srv.PR(prfixture.Repo, 2); len(pr.Reviews) != 1 {
				t.Fatalf("no review: %v", srv.Log())
			}
		})
	}
}

// TestActionREADMESarifLinter is the README's first workflow: a SARIF
// linter as a gate.
func TestActionREADMESarifLinter(t *testing.T) {
	srv, root := prfixture.Setup(t)
	copyFixture(t, root, "../../fixtures/sarif/lint-two-runs.sarif", "eslint.sarif")
	r := newActionRunner(t, srv, root, "pull_request", prfixture.Event).input("sarif", "eslint.sarif")
	code, stdout := r.run()
	out := r.outputs()
	if (code == cmdenv.ExitFail) != (out["verdict"] == "block" || out["verdict"] == "escalate") || code == cmdenv.ExitUsage {
		t.Fatalf("exit %d with verdict %q\n%s", code, out["verdict"], stdout)
	}
	runs := runsOn(srv, prfixture.HeadSHA)
	if len(runs) == 0 {
		t.Fatalf("no check runs: %v", srv.Log())
	}
	for name, run := range runs {
		if !strings.HasPrefix(name, "agc/") || run.Conclusion == "" {
			t.Errorf("check run %q: %+v", name, run)
		}
	}
	if runs["agc/agc-validate"] != nil {
		t.Errorf("SARIF-only input has no AGC answers to validate")
	}
	// The rule's help page reaches the summary as a link showing its host:
	// the member package sarif carries it in is the reader's, not a forgery.
	if run := runs["agc/demo-lint"]; run == nil || !strings.Contains(run.Summary, "[`DL001`](https://example.com/rules/DL001) (example.com)") {
		t.Errorf("the summary does not link rule DL001 to its help page: %+v", run)
	}

	// The README pairs the log with its gate: one run, named as the line says.
	srv, root = prfixture.Setup(t)
	copyFixture(t, root, "../../fixtures/sarif/lint-two-runs.sarif", "two.sarif")
	var log map[string]any
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(root, "two.sarif"))), &log); err != nil {
		t.Fatal(err)
	}
	log["runs"] = log["runs"].([]any)[:1]
	data, _ := json.Marshal(log)
	writeFile(t, root, "eslint.sarif", data)
	r = newActionRunner(t, srv, root, "pull_request", prfixture.Event).input("sarif", "eslint=eslint.sarif")
	if code, stdout := r.run(); code == cmdenv.ExitUsage || strings.Contains(stdout, "pairs its files with no gate") {
		t.Fatalf("exit %d\n%s", code, stdout)
	}
	if runs := runsOn(srv, prfixture.HeadSHA); len(runs) != 1 || runs["agc/eslint"] == nil {
		t.Fatalf("want agc/eslint alone: %v", runs)
	}
}

// TestActionREADMEReviewAgent is the README's second workflow: a review
// agent's final message with an agc block.
func TestActionREADMEReviewAgent(t *testing.T) {
	srv, root := prfixture.Setup(t)
	copyFixture(t, root, "../../fixtures/messages/code-review.md", "review.md")
	r := newActionRunner(t, srv, root, "pull_request", prfixture.Event).input("agc", "code-review=review.md").input("fail-on", "block")
	code, stdout := r.run()
	if strings.Contains(stdout, "pairs its files with no gate") {
		t.Errorf("the README's paired line must not be warned about:\n%s", stdout)
	}
	out := r.outputs()
	if out["verdict"] == "" || code == cmdenv.ExitUsage {
		t.Fatalf("exit %d, outputs %v\n%s", code, out, stdout)
	}
	runs := runsOn(srv, prfixture.HeadSHA)
	if v := runs["agc/agc-validate"]; v == nil || v.Conclusion != "success" {
		t.Errorf("the extracted block must validate: %+v", v)
	}
	if len(runs) != 2 {
		t.Errorf("want the review gate's check run and agc-validate's: %v", runs)
	}
}
