package ghapi

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/google/go-github/v62/github"
)

const (
	testRepo  = "Codertocat/Hello-World"
	testOwner = "Codertocat"
	testName  = "Hello-World"
	headSHA   = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"
)

// fakeSleep records waits instead of sleeping.
type fakeSleep = ghtest.Sleeps

func newClient(t *testing.T, srv *ghtest.Server, token string, sl *fakeSleep) *Client {
	t.Helper()
	c, err := New(Config{Owner: testOwner, Repo: testName, Token: token, BaseURL: srv.URL(), GraphQLURL: srv.GraphQLURL(),
		Retry: RetryPolicy{Sleep: sl.Sleep, Jitter: func(d time.Duration) time.Duration { return d }}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// postStatus posts a passing commit status agc/g on headSHA.
func postStatus(c *Client) error {
	return c.CreateStatus(context.Background(), headSHA, &github.RepoStatus{State: github.String("success"), Context: github.String("agc/g"), Description: github.String("allow")})
}

func isHTTP(err error, status int) bool {
	var he *HTTPError
	return errors.As(err, &he) && he.Status == status
}
