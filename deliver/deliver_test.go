package deliver

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/ghapi"
	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/review"
)

func TestReadOnlyTokenDegrades(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	head := prFixture(t, srv)
	r := response("lint", agc.Block,
		patchFinding("lint", "ping", "db.go", "\tdb.Ping()\n", ""),
		finding("lint", "cmd", "Bash.command", agc.Advisory))
	c := newClient(t, srv, ghtest.TokenReadOnly, &fakeSleep{})
	var ann, sum bytes.Buffer
	rep, err := Deliver(context.Background(), c, []agc.Doc{{Response: r}}, Options{PR: 2, HeadSHA: headSHA, Review: true, Check: true,
		Plan: review.PlanOptions{Head: head}, Annotations: &ann, Summary: &sum})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Degraded {
		t.Error("not degraded")
	}
	want := []string{
		"::warning title=agc read-only token::agc: the token cannot write",
		"::error endLine=4,file=db.go,line=4,title=agc/lint c-ping::What is wrong with ping.%0ARule ping says so.%0A(lint/ping)",
		"::warning title=agc/lint c-cmd::What is wrong with cmd.", // Bash.command is no file at head
	}
	for _, w := range want {
		if !strings.Contains(ann.String(), w) {
			t.Errorf("annotations lack %q:\n%s", w, ann.String())
		}
	}
	if !strings.Contains(sum.String(), "cannot write") || !strings.Contains(sum.String(), "2 findings in full") {
		t.Errorf("job summary:\n%s", sum.String())
	}
}

func TestGitHubEnterpriseServer(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{Prefix: "/api/v3"})
	head := prFixture(t, srv)
	c, err := ghapi.New(ghapi.Config{Owner: testOwner, Repo: testName, Token: ghtest.TokenActions, BaseURL: strings.TrimSuffix(srv.URL(), "/")})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	r := response("lint", agc.Block, finding("lint", "added", "db.go:4", agc.Blocking))
	for i := 0; i < 2; i++ { // the second run reads threads through GraphQL
		if _, err := Deliver(ctx, c, []agc.Doc{{Response: r}}, Options{PR: 2, HeadSHA: headSHA, Review: true, Check: true, Plan: review.PlanOptions{Head: head}}); err != nil {
			t.Fatal(err)
		}
	}
	if n := srv.Counts()["graphql/AgcReviewThreads"]; n != 1 {
		t.Errorf("GraphQL thread queries: %d, want 1", n)
	}
}

func TestDryRunPrintsAndSendsNothing(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	var out bytes.Buffer
	c, err := ghapi.New(ghapi.Config{Owner: testOwner, Repo: testName, Token: "secret-token", BaseURL: srv.URL(), Transport: &ghapi.DryRun{W: &out}})
	if err != nil {
		t.Fatal(err)
	}
	r := response("lint", agc.Block, finding("lint", "x", "main.go:1", agc.Blocking))
	if _, err := Deliver(context.Background(), c, []agc.Doc{{Response: r}}, Options{PR: 2, HeadSHA: headSHA, Review: true, Check: true, Status: true}); err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Counts()); n != 0 {
		t.Errorf("dry run reached the server: %v", srv.Counts())
	}
	s := out.String()
	for _, w := range []string{"POST /repos/Codertocat/Hello-World/pulls/2/reviews HTTP/1.1", "POST /repos/Codertocat/Hello-World/check-runs HTTP/1.1",
		"POST /repos/Codertocat/Hello-World/statuses/" + headSHA, "Authorization: Bearer ***", `"name":"agc/lint"`} {
		if !strings.Contains(s, w) {
			t.Errorf("dry run output lacks %q", w)
		}
	}
	if strings.Contains(s, "secret-token") {
		t.Error("dry run printed the token")
	}
}

func TestDryRunForwardsReads(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	head := prFixture(t, srv)
	var out bytes.Buffer
	c, err := ghapi.New(ghapi.Config{Owner: testOwner, Repo: testName, Token: ghtest.TokenActions, BaseURL: srv.URL(), GraphQLURL: srv.GraphQLURL(),
		Transport: &ghapi.DryRun{W: &out, Reads: http.DefaultTransport}})
	if err != nil {
		t.Fatal(err)
	}
	r := response("lint", agc.Block, finding("lint", "added", "db.go:4", agc.Blocking))
	if _, err := Deliver(context.Background(), c, []agc.Doc{{Response: r}}, Options{PR: 2, HeadSHA: headSHA, Review: true, Plan: review.PlanOptions{Head: head}}); err != nil {
		t.Fatal(err)
	}
	counts := srv.Counts()
	if counts["pulls/list-files"] != 1 || counts["pulls/create-review"] != 0 {
		t.Errorf("counts %v: reads should reach the server, writes not", counts)
	}
	if !strings.Contains(out.String(), `"path":"db.go"`) {
		t.Errorf("the printed review lacks the inline comment:\n%s", out.String())
	}
}

// A changed finding is edited in place; one that comes back after its
// thread was resolved reopens the thread.
func TestRerunEditsAndReopens(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	head := prFixture(t, srv)
	c := newClient(t, srv, ghtest.TokenActions, &fakeSleep{})
	ctx := context.Background()
	a := finding("lint", "a", "db.go:4", agc.Blocking)
	b := finding("lint", "b", "db.go:5", agc.Blocking)
	deliver := func(fs ...agc.Finding) *ReviewResult {
		t.Helper()
		rep, err := Deliver(ctx, c, []agc.Doc{{Response: response("lint", agc.Block, fs...)}}, Options{PR: 2, HeadSHA: headSHA, Review: true, Plan: review.PlanOptions{Head: head}})
		if err != nil {
			t.Fatal(err)
		}
		return rep.Reviews["lint"]
	}
	deliver(a, b)
	a2 := a
	a2.What = "Something else is wrong."
	if res := deliver(a2); res.Edited != 2 || res.Resolved != 1 || res.Posted != 0 {
		t.Errorf("second run %+v, want 2 edited (the comment, the review body's count) and 1 resolved", res)
	}
	if res := deliver(a2, b); res.Unresolved != 1 || res.Posted != 0 {
		t.Errorf("third run %+v, want b's thread reopened", res)
	}
	srv.Snapshot(func(prs map[string]*ghtest.PullRequest, _ []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		pr := prs[testRepo+"#2"]
		for _, th := range pr.Threads {
			if th.Resolved {
				t.Errorf("thread %s still resolved", th.ID)
			}
		}
		if !strings.Contains(pr.Comments[0].Body, "Something else is wrong") {
			t.Errorf("comment not edited: %s", pr.Comments[0].Body)
		}
	})
}

// A review GitHub refuses does not keep the check run from being posted,
// and the error carries GitHub's message.
func TestCheckRunPostedWhenReviewFails(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	head := prFixture(t, srv)
	srv.Inject("pulls/create-review", ghtest.Fault{Status: 422, Message: "Unprocessable Entity: Line could not be resolved"})
	c := newClient(t, srv, ghtest.TokenActions, &fakeSleep{})
	r := response("lint", agc.Block, finding("lint", "a", "db.go:4", agc.Blocking))
	rep, err := Deliver(context.Background(), c, []agc.Doc{{Response: r}}, Options{PR: 2, HeadSHA: headSHA, Review: true, Check: true, Plan: review.PlanOptions{Head: head}})
	if !isHTTP(err, 422) || !strings.Contains(err.Error(), "Line could not be resolved") {
		t.Errorf("err = %v, want GitHub's 422", err)
	}
	if rep.Checks != 1 || srv.Counts()["checks/create"] != 1 {
		t.Errorf("check runs posted: %d", rep.Checks)
	}
}
