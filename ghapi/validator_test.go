package ghapi

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

// TestValidatorRunAgreement: the ghapi side of issue 24, item 9, on one
// commit: a passing agc/agc-validate of one job posted after another
// job's failing one fails, and so does its status; a read of the commit's
// runs that fails posts nothing and is an error naming it.
func TestValidatorRunAgreement(t *testing.T) {
	ctx := context.Background()
	resp := func(vs ...validate.Violation) agc.Doc {
		return agc.Doc{Response: validate.AsResponse([]validate.Input{{File: "out.json"}}, vs, validate.GateOptions{})}
	}
	bad := resp(validate.Violation{Place: diag.Place{File: "out.json"}, Rule: "V1.schema", Section: "§5", Severity: validate.SeverityError, Message: "not JSON"})
	opt := func(job string) DeliverOptions {
		return DeliverOptions{HeadSHA: headSHA, Check: true, Status: true, ValidatorJob: job}
	}
	t.Run("a later passing job fails, and its status", func(t *testing.T) {
		srv := ghtest.New(t, ghtest.Options{})
		c := newClient(t, srv, ghtest.TokenActions, &fakeSleep{})
		if _, err := c.Deliver(ctx, []agc.Doc{bad}, opt(carry.ValidatorJob("w", "a", nil))); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Deliver(ctx, []agc.Doc{resp()}, opt(carry.ValidatorJob("w", "b", nil))); err != nil {
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
		rep, err := c.Deliver(ctx, []agc.Doc{resp()}, opt("j"))
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
