package action

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/carry"
	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/internal/prfixture"
)

// parallelJob is one job of a workflow that runs its gates in parallel
// jobs, each running the Action on the same commit with its own answer.
type parallelJob struct {
	name, gate, file, answer string
}

// run runs the job's Action step in its own workspace.
func (j parallelJob) run(t *testing.T, srv *ghtest.Server, attempt string) (int, string) {
	t.Helper()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, filepath.Dir(j.file)), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, j.file, []byte(j.answer))
	r := newActionRunner(t, srv, root, "pull_request", prfixture.Event).input("agc", j.gate+"="+j.file)
	r.env["GITHUB_JOB"], r.env["GITHUB_RUN_ATTEMPT"] = j.name, attempt
	r.env["GITHUB_WORKFLOW_REF"] = prfixture.Repo + "/.github/workflows/gates.yml@refs/pull/2/merge"
	return r.run()
}

// requiredValidate is what a branch rule requiring agc/agc-validate (of
// the GitHub Actions app) sees on the head.
func requiredValidate(t *testing.T, srv *ghtest.Server) *ghtest.CheckRun {
	t.Helper()
	run := srv.RequiredCheck(prfixture.Repo, prfixture.HeadSHA, "agc/agc-validate", carry.ActionsAppID)
	if run == nil {
		t.Fatal("no agc/agc-validate check run on the head")
	}
	return run
}

// TestParallelJobsKeepValidationFailure is issue 24, item 9: two jobs on
// one commit, one whose answer is malformed, one whose answer is clean.
// Whichever finishes last, and when they run at once (the clean job reads
// the commit's agc-validate runs, then the malformed one posts, then the
// clean one posts), the run a branch rule requiring agc/agc-validate reads
// is a failure.
func TestParallelJobsKeepValidationFailure(t *testing.T) {
	clean, err := os.ReadFile(prfixture.Patch)
	if err != nil {
		t.Fatal(err)
	}
	bad := parallelJob{name: "review", gate: "review", file: "out/review.json", answer: `{"agc": "0.1.1", "gate": `}
	good := parallelJob{name: "lint", gate: "go-lint", file: "out/lint.json", answer: string(clean)}
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, srv *ghtest.Server)
	}{
		{"malformed first", func(t *testing.T, srv *ghtest.Server) {
			bad.run(t, srv, "1")
			good.run(t, srv, "1")
		}},
		{"malformed last", func(t *testing.T, srv *ghtest.Server) {
			good.run(t, srv, "1")
			bad.run(t, srv, "1")
		}},
		{"at once: the malformed job posts between the clean job's read and its post", func(t *testing.T, srv *ghtest.Server) {
			ran := false
			srv.Between(listsValidateRuns, func() { ran = true; bad.run(t, srv, "1") })
			good.run(t, srv, "1")
			if !ran {
				t.Error("the clean job never read the commit's agc/agc-validate runs before posting its own")
				bad.run(t, srv, "1")
			}
			// the clean job's run is the newest: it read again after
			// posting and updated itself to fail
			if got := requiredValidate(t, srv); got.Requests != 2 || !strings.Contains(got.Summary, "another job's answers on this commit are invalid") {
				t.Errorf("the newest run (%d requests) must be the clean job's, updated to fail naming the other:\n%s", got.Requests, got.Summary)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, _ := prfixture.Setup(t)
			tc.run(t, srv)
			if got := requiredValidate(t, srv); got.Conclusion != "failure" {
				t.Fatalf("a branch rule requiring agc/agc-validate sees %q (check run %d: %s), want failure: the malformed answer of job %s is hidden",
					got.Conclusion, got.ID, got.Title, bad.name)
			}
		})
	}
}

// TestParallelJobsRerunClearsItsOwnFailure: the job whose answer was
// malformed is run again (a new attempt) and now answers cleanly; its new
// run supersedes its own earlier failure, and with the other job clean too
// the check passes. A third job's failure would still stand.
func TestParallelJobsRerunClearsItsOwnFailure(t *testing.T) {
	clean, err := os.ReadFile(prfixture.Patch)
	if err != nil {
		t.Fatal(err)
	}
	bad := parallelJob{name: "review", gate: "review", file: "out/review.json", answer: `{"agc": `}
	good := parallelJob{name: "lint", gate: "go-lint", file: "out/lint.json", answer: string(clean)}
	srv, _ := prfixture.Setup(t)
	bad.run(t, srv, "1")
	good.run(t, srv, "1")
	if got := requiredValidate(t, srv); got.Conclusion != "failure" {
		t.Fatalf("before the rerun: %q, want failure", got.Conclusion)
	}
	fixed := bad
	fixed.answer = strings.Replace(string(clean), `"id": "go-lint"`, `"id": "review"`, 1)
	if code, stdout := fixed.run(t, srv, "2"); code != cmdenv.ExitFail {
		// review's answer blocks (its findings): exit 1, not 2
		t.Fatalf("rerun exit %d, want %d\n%s", code, cmdenv.ExitFail, stdout)
	}
	if got := requiredValidate(t, srv); got.Conclusion != "success" {
		t.Fatalf("after the malformed job's rerun answered cleanly: %q (%s), want success\n%s", got.Conclusion, got.Title, got.Summary)
	}
}

// listsValidateRuns matches a read of the head's agc/agc-validate runs.
func listsValidateRuns(r *http.Request) bool {
	return r.Method == http.MethodGet && strings.Contains(r.URL.Path, "/commits/"+prfixture.HeadSHA+"/check-runs") &&
		r.URL.Query().Get("check_name") == "agc/agc-validate"
}
