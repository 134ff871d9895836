package deliver

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/ghapi"
	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/review"
)

// TestNewFromEnv: the client reaches the API the environment names; in a
// dry run it prints the writes and sends reads only with a token.
func TestNewFromEnv(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	head := prFixture(t, srv)
	env := map[string]string{"GITHUB_API_URL": srv.URL(), "GITHUB_GRAPHQL_URL": srv.GraphQLURL()}
	getenv := func(k string) string { return env[k] }
	r := response("lint", agc.Block, finding("lint", "added", "db.go:4", agc.Blocking))
	deliver := func(token string, dry *bytes.Buffer) map[string]int {
		t.Helper()
		srv.ResetCounts()
		var w io.Writer // a nil *bytes.Buffer would be a writer
		if dry != nil {
			w = dry
		}
		c, err := ghapi.NewFromEnv(getenv, ghapi.Config{Owner: testOwner, Repo: testName, Token: token}, w)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Deliver(context.Background(), c, []agc.Doc{{Response: r}}, Options{PR: 2, HeadSHA: headSHA, Review: true, Check: true,
			Plan: review.PlanOptions{Head: head}}); err != nil {
			t.Fatal(err)
		}
		return srv.Counts()
	}
	var out bytes.Buffer
	if n := deliver("", &out); len(n) != 0 {
		t.Errorf("a dry run without a token reached the server: %v", n)
	}
	if !strings.Contains(out.String(), "POST /repos/Codertocat/Hello-World/check-runs") {
		t.Errorf("the dry run did not print the check run:\n%s", out.String())
	}
	out.Reset()
	if n := deliver(ghtest.TokenActions, &out); n["pulls/list-files"] != 1 || n["checks/create"] != 0 || n["pulls/create-review"] != 0 {
		t.Errorf("a dry run with a token: counts %v, want reads only", n)
	}
	if n := deliver(ghtest.TokenActions, nil); n["pulls/create-review"] != 1 || n["checks/create"] != 1 {
		t.Errorf("a run: counts %v, want the review posted", n)
	}
}
