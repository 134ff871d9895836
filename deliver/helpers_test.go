package deliver

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/ghapi"
	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/internal/agctest"
	"github.com/agcgate/agc-action/review"
)

var update = flag.Bool("update", false, "rewrite golden files")

const (
	testRepo  = "Codertocat/Hello-World"
	testOwner = "Codertocat"
	testName  = "Hello-World"
	headSHA   = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"
	headSHA2  = "6113728f27ae82c7b1a177c8d03f9e96e0adf246"
)

// files is a FileReader over a map, standing for the checkout at head.
type files map[string]string

func (f files) ReadFile(path string) ([]byte, error) {
	s, ok := f[path]
	if !ok {
		return nil, fmt.Errorf("%s: %w", path, os.ErrNotExist)
	}
	return []byte(s), nil
}

// fakeSleep records waits instead of sleeping.
type fakeSleep = ghtest.Sleeps

func newClient(t *testing.T, srv *ghtest.Server, token string, sl *fakeSleep) *ghapi.Client {
	t.Helper()
	c, err := ghapi.New(ghapi.Config{Owner: testOwner, Repo: testName, Token: token, BaseURL: srv.URL(), GraphQLURL: srv.GraphQLURL(),
		Retry: ghapi.RetryPolicy{Sleep: sl.Sleep, Jitter: func(d time.Duration) time.Duration { return d }}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// reviewPR loads pull request 2 at headSHA and reviews it with r, as the
// Action does on every run, failing the test on either error.
func reviewPR(t *testing.T, c *ghapi.Client, r *agc.Response, head files) *ReviewResult {
	t.Helper()
	ctx := context.Background()
	st, err := LoadPR(ctx, c, 2, headSHA)
	if err != nil {
		t.Fatal(err)
	}
	res, err := reviewOne(ctx, c, st, r, review.PlanOptions{Head: head})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// reviewOne delivers the findings of r to the pull request as one
// review, reconciled with what earlier runs posted and within the ceiling
// of one run, its threads resolved and reopened, as Deliver does for each
// gate.
func reviewOne(ctx context.Context, c *ghapi.Client, st *review.PRState, r *agc.Response, po review.PlanOptions) (*ReviewResult, error) {
	po.Login = c.Login()
	p := review.PlanReview(st, r, po, review.NewBudget())
	d := &run{gh: c, rep: &Report{}}
	res, err := d.postReview(ctx, st, p)
	if err != nil {
		return res, err
	}
	if err := setThreads(ctx, c, p.Reopen, p.Resolve); err != nil {
		return res, err
	}
	res.Resolved, res.Unresolved = len(p.Resolve), len(p.Reopen)
	return res, nil
}

// lines returns n numbered lines of Go-like text.
func lines(prefix string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "\t%s_%d := compute(%d)\n", prefix, i, i)
	}
	return b.String()
}

var (
	finding  = agctest.Finding
	response = agctest.Response
)

func patchFinding(gate, id, path, find, replace string) agc.Finding {
	f := finding(gate, id, path+"#"+id, agc.Blocking)
	f.Remedy = agc.Remedy{Kind: agc.RemedyPatch, Edits: []agc.Edit{{Path: path, Find: find, Replace: replace}}}
	return f
}

func isHTTP(err error, status int) bool {
	var he *ghapi.HTTPError
	return errors.As(err, &he) && he.Status == status
}

// delivered reads back, from the emulator's state, where each finding id
// was delivered: "inline", "file" or "body", by the markers of every
// comment and review body of pull request number.
func delivered(srv *ghtest.Server, number int) map[string][]string {
	out := map[string][]string{}
	srv.Snapshot(func(prs map[string]*ghtest.PullRequest, _ []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		pr := prs[fmt.Sprintf("%s#%d", testRepo, number)]
		var bodies []string
		for _, c := range pr.Comments {
			bodies = append(bodies, c.Body)
		}
		for _, r := range pr.Reviews {
			bodies = append(bodies, r.Body)
		}
		for _, b := range bodies {
			ms := review.ParseMarkers(b)
			if len(ms) == 0 {
				continue
			}
			channel := map[string]string{review.MarkFinding: "inline", review.MarkFile: "file", review.MarkReview: "body"}[ms[0].Kind]
			for _, m := range ms {
				if m.Kind == review.MarkFinding {
					out[m.Attrs["id"]] = append(out[m.Attrs["id"]], channel)
				}
			}
		}
	})
	return out
}
