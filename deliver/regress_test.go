package deliver

import (
	"context"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/ghapi"
	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/review"
)

// two findings with one id (a [V] error, but the Action still posts)
// flip-flop one comment between their texts on every run and resolve the other.
func TestDuplicateIDsDoNotFlipFlop(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	head := prFixture(t, srv)
	f1 := finding("lint", "x", "db.go:4", agc.Blocking)
	f2 := finding("lint", "x", "db.go:5", agc.Blocking)
	f2.What = "Another text."
	r := response("lint", agc.Block, f1, f2)
	c := newClient(t, srv, ghtest.TokenActions, &fakeSleep{})
	for run := 1; run <= 3; run++ {
		res := reviewPR(t, c, r, head)
		t.Logf("run %d: posted %d edited %d unchanged %d resolved %d", run, res.Posted, res.Edited, res.Unchanged, res.Resolved)
		if run == 3 && res.Edited != 0 {
			t.Errorf("run 3 of an unchanged response edited %d comments", res.Edited)
		}
	}
}

// a person resolves the thread of a finding that is still reported
// (won't fix); every later run reopens it.
func TestThreadResolvedByAPersonStaysResolved(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	head := prFixture(t, srv)
	r := response("lint", agc.Block, finding("lint", "x", "db.go:4", agc.Blocking))
	c := newClient(t, srv, ghtest.TokenActions, &fakeSleep{})
	ctx := context.Background()
	st, _ := LoadPR(ctx, c, 2, headSHA)
	if _, err := reviewOne(ctx, c, st, r, review.PlanOptions{Head: head}); err != nil {
		t.Fatal(err)
	}
	srv.Snapshot(func(prs map[string]*ghtest.PullRequest, _ []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		for _, th := range prs[testRepo+"#2"].Threads {
			th.Resolved = true // the person resolves it
		}
	})
	st, _ = LoadPR(ctx, c, 2, headSHA)
	res, err := reviewOne(ctx, c, st, r, review.PlanOptions{Head: head})
	if err != nil {
		t.Fatal(err)
	}
	if res.Unresolved != 0 {
		t.Errorf("rerun with the same finding reopened %d threads a person resolved", res.Unresolved)
	}
}

// applied502 forwards every request, then answers 502 to the first n POSTs
// to .../reviews: GitHub applied the write but the gateway timed out.
type applied502 struct{ n int }

func (a *applied502) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err == nil && r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/reviews") && a.n > 0 {
		a.n--
		resp.Body.Close()
		return &http.Response{StatusCode: 502, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(`{"message":"Server Error"}`)), Request: r}, nil
	}
	return resp, err
}

// TestAppliedWriteNotSentTwice: a create-review POST answered 502 after
// GitHub made the review is not sent again: one run, one review.
func TestAppliedWriteNotSentTwice(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	head := prFixture(t, srv)
	r := response("lint", agc.Block, finding("lint", "x", "db.go:4", agc.Blocking))
	sl := &fakeSleep{}
	c, err := ghapi.New(ghapi.Config{Owner: testOwner, Repo: testName, Token: ghtest.TokenActions, BaseURL: srv.URL(), GraphQLURL: srv.GraphQLURL(),
		Transport: &applied502{n: 5}, Retry: ghapi.RetryPolicy{Sleep: sl.Sleep, Jitter: func(d time.Duration) time.Duration { return d }}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, _ := LoadPR(ctx, c, 2, headSHA)
	if _, err := reviewOne(ctx, c, st, r, review.PlanOptions{Head: head}); err != nil {
		t.Fatalf("the review was made; the 502 must not fail the run: %v", err)
	}
	srv.Snapshot(func(prs map[string]*ghtest.PullRequest, _ []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		pr := prs[testRepo+"#2"]
		if len(pr.Reviews) != 1 {
			t.Errorf("one finding, one run: %d reviews and %d comments posted", len(pr.Reviews), len(pr.Comments))
		}
	})
}

// lost502 answers 502 to the first n POSTs to .../reviews without
// forwarding them: GitHub did not make the review.
type lost502 struct{ n int }

func (a *lost502) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/reviews") && a.n > 0 {
		a.n--
		return &http.Response{StatusCode: 502, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(`{"message":"Server Error"}`)), Request: r}, nil
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestLostWriteSentAgain: a create-review POST answered 502 that GitHub
// did not make is sent again after the transport's backoff: one review.
func TestLostWriteSentAgain(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	head := prFixture(t, srv)
	r := response("lint", agc.Block, finding("lint", "x", "db.go:4", agc.Blocking))
	sl := &fakeSleep{}
	c, err := ghapi.New(ghapi.Config{Owner: testOwner, Repo: testName, Token: ghtest.TokenActions, BaseURL: srv.URL(), GraphQLURL: srv.GraphQLURL(),
		Transport: &lost502{n: 2}, Retry: ghapi.RetryPolicy{Sleep: sl.Sleep, Jitter: func(d time.Duration) time.Duration { return d }}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, _ := LoadPR(ctx, c, 2, headSHA)
	if _, err := reviewOne(ctx, c, st, r, review.PlanOptions{Head: head}); err != nil {
		t.Fatalf("the third attempt made the review: %v", err)
	}
	if got, want := sl.Waits(), []time.Duration{time.Second, 2 * time.Second}; !slices.Equal(got, want) {
		t.Errorf("waits %v, want %v", got, want)
	}
	srv.Snapshot(func(prs map[string]*ghtest.PullRequest, _ []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		if n := len(prs[testRepo+"#2"].Reviews); n != 1 {
			t.Errorf("%d reviews, want 1", n)
		}
	})
}
