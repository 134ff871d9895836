package deliver

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/carry"
	"github.com/agcgate/agc-action/diag"
	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/validate"
)

// validatorAnswer is the agc-validate answer of a job that validated
// out.json and found vs.
func validatorAnswer(vs ...validate.Violation) agc.Doc {
	return agc.Doc{Response: validate.AsResponse([]validate.Input{{File: "out.json"}}, vs, validate.GateOptions{})}
}

// invalidJSON is what a job whose answer is malformed finds.
var invalidJSON = validate.Violation{Place: diag.Place{File: "out.json"}, Rule: "V1.schema", Section: "§5", Severity: validate.SeverityError, Message: "not JSON"}

// TestValidatorRunAgreement: the ghapi side of issue 24, item 9, on one
// commit: a passing agc/agc-validate of one job posted after another
// job's failing one fails, and so does its status; a read of the commit's
// runs that fails posts nothing and is an error naming it.
func TestValidatorRunAgreement(t *testing.T) {
	ctx := context.Background()
	resp, bad := validatorAnswer, validatorAnswer(invalidJSON)
	opt := func(job string) Options {
		return Options{HeadSHA: headSHA, Check: true, Status: true, ValidatorJob: job}
	}
	t.Run("a later passing job fails, and its status", func(t *testing.T) {
		srv := ghtest.New(t, ghtest.Options{})
		c := newClient(t, srv, ghtest.TokenActions, &fakeSleep{})
		if _, err := Deliver(ctx, c, []agc.Doc{bad}, opt(carry.ValidatorJob("w", "a", nil))); err != nil {
			t.Fatal(err)
		}
		if _, err := Deliver(ctx, c, []agc.Doc{resp()}, opt(carry.ValidatorJob("w", "b", nil))); err != nil {
			t.Fatal(err)
		}
		run := srv.RequiredCheck(testRepo, headSHA, "agc/agc-validate", carry.ActionsAppID)
		if run.Conclusion != "failure" || run.Title != failingTitle || !strings.Contains(run.Summary, "another job's answers on this commit are invalid") {
			t.Errorf("newest run: %s %q\n%s", run.Conclusion, run.Title, run.Summary)
		}
		srv.Snapshot(func(_ map[string]*ghtest.PullRequest, _ []*ghtest.CheckRun, sts []*ghtest.Status, _ []*ghtest.SARIFUpload) {
			if last := sts[len(sts)-1]; last.State != "failure" {
				t.Errorf("the newest status is %s, want failure", last.State)
			}
		})
	})
	t.Run("a read that fails posts nothing", func(t *testing.T) {
		srv := ghtest.New(t, ghtest.Options{})
		c := newClient(t, srv, ghtest.TokenActions, &fakeSleep{})
		srv.Inject("checks/list-for-ref", ghtest.Fault{Status: http.StatusNotFound, Message: "Not Found"})
		rep, err := Deliver(ctx, c, []agc.Doc{resp()}, opt("j"))
		if err == nil || !strings.Contains(err.Error(), "read the other jobs' agc/agc-validate runs") {
			t.Fatalf("err %v", err)
		}
		if len(rep.NotDelivered) != 1 || rep.Checks != 0 {
			t.Errorf("report %+v", rep)
		}
		if run := srv.RequiredCheck(testRepo, headSHA, "agc/agc-validate", 0); run != nil {
			t.Errorf("posted %+v", run)
		}
	})
}

// TestValidatorFailsClosed: the second read and the status are where a
// passing job could still hide another job's failure from a branch rule
// (issue 24, item 9; found by a second read of the change).
func TestValidatorFailsClosed(t *testing.T) {
	ctx := context.Background()
	resp, bad := validatorAnswer, validatorAnswer(invalidJSON)
	lists := func(r *http.Request) bool {
		return r.Method == http.MethodGet && strings.Contains(r.URL.Path, "/check-runs") && r.URL.Query().Get("check_name") == "agc/agc-validate"
	}
	newestStatus := func(t *testing.T, srv *ghtest.Server) string {
		t.Helper()
		state := ""
		srv.Snapshot(func(_ map[string]*ghtest.PullRequest, _ []*ghtest.CheckRun, sts []*ghtest.Status, _ []*ghtest.SARIFUpload) {
			if len(sts) > 0 {
				state = sts[len(sts)-1].State
			}
		})
		return state
	}
	t.Run("the second read fails after the other job failed", func(t *testing.T) {
		srv := ghtest.New(t, ghtest.Options{})
		a := newClient(t, srv, ghtest.TokenActions, &fakeSleep{})
		b := newClient(t, srv, ghtest.TokenActions, &fakeSleep{})
		opt := func(job string) Options {
			return Options{HeadSHA: headSHA, Check: true, Status: true, ValidatorJob: job}
		}
		srv.Between(lists, func() {
			if _, err := Deliver(ctx, a, []agc.Doc{bad}, opt(carry.ValidatorJob("w", "a", nil))); err != nil {
				t.Error(err)
			}
			faults := make([]ghtest.Fault, 10)
			for i := range faults {
				faults[i] = ghtest.ServerError(502)
			}
			srv.Inject("checks/list-for-ref", faults...)
		})
		_, err := Deliver(ctx, b, []agc.Doc{resp()}, opt(carry.ValidatorJob("w", "b", nil)))
		if err == nil {
			t.Error("a second read that failed is no error")
		}
		if run := srv.RequiredCheck(testRepo, headSHA, "agc/agc-validate", carry.ActionsAppID); run.Conclusion != "failure" {
			t.Errorf("the newest agc/agc-validate is %s %q, want failure", run.Conclusion, run.Title)
		}
		if s := newestStatus(t, srv); s != "failure" {
			t.Errorf("the newest agc/agc-validate status is %s, want failure", s)
		}
	})
	t.Run("the other job posts between the read and the status", func(t *testing.T) {
		srv := ghtest.New(t, ghtest.Options{})
		a := newClient(t, srv, ghtest.TokenActions, &fakeSleep{})
		b := newClient(t, srv, ghtest.TokenActions, &fakeSleep{})
		opt := func(job string) Options {
			return Options{HeadSHA: headSHA, Check: true, Status: true, ValidatorJob: job}
		}
		srv.Between(lists, func() { // B's first read passes; A runs during B's second
			srv.Between(lists, func() {
				if _, err := Deliver(ctx, a, []agc.Doc{bad}, opt(carry.ValidatorJob("w", "a", nil))); err != nil {
					t.Error(err)
				}
			})
		})
		if _, err := Deliver(ctx, b, []agc.Doc{resp()}, opt(carry.ValidatorJob("w", "b", nil))); err != nil {
			t.Fatal(err)
		}
		if run := srv.RequiredCheck(testRepo, headSHA, "agc/agc-validate", carry.ActionsAppID); run.Conclusion != "failure" {
			t.Errorf("the newest agc/agc-validate is %s, want failure", run.Conclusion)
		}
		if s := newestStatus(t, srv); s != "failure" {
			t.Errorf("the newest agc/agc-validate status is %s, want failure", s)
		}
	})
}
