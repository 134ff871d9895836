package deliver

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/ghapi"
	"github.com/agcgate/agc-action/ghapi/ghtest"
)

// failNthPull answers the nth GET of the pull request itself (GET
// /pulls/{n}) with a transport error: GitHub cannot be reached when the
// run re-reads the head.
type failNthPull struct {
	mu   sync.Mutex
	n    int
	seen int
}

func (f *failNthPull) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/pulls/2") {
		f.mu.Lock()
		f.seen++
		fail := f.seen == f.n
		f.mu.Unlock()
		if fail {
			return &http.Response{StatusCode: http.StatusNotFound, Status: "404 Not Found", Header: http.Header{"Content-Type": {"application/json"}},
				Body: http.NoBody, Request: r}, nil
		}
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestRefusedReviewWithUnreadableHeadIsReported: GitHub refuses gate
// lint's review (422) and the head cannot be re-read to learn why; the
// review that was not written is named in NotDelivered and its error is
// returned, not lost between the two.
func TestRefusedReviewWithUnreadableHeadIsReported(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	head := prFixture(t, srv)
	srv.Inject("pulls/create-review", ghtest.Fault{Status: http.StatusUnprocessableEntity, Message: "Validation Failed"})
	c, err := ghapi.New(ghapi.Config{Owner: testOwner, Repo: testName, Token: ghtest.TokenActions, BaseURL: srv.URL(), GraphQLURL: srv.GraphQLURL(),
		Transport: &failNthPull{n: 3}, Retry: ghapi.RetryPolicy{Sleep: (&fakeSleep{}).Sleep, Jitter: func(d time.Duration) time.Duration { return d }}})
	if err != nil {
		t.Fatal(err)
	}
	r := response("lint", agc.Block, finding("lint", "ping", "db.go:4", agc.Blocking))
	rep, _, err := deliverAt(t, c, headSHA, r, head, nil)
	if err == nil || !strings.Contains(err.Error(), "gate lint") {
		t.Errorf("err %v, want the refused review of gate lint", err)
	}
	if want := reviewLeft("lint", 1, 0); len(rep.NotDelivered) != 1 || rep.NotDelivered[0] != want {
		t.Errorf("not delivered %q, want [%q]", rep.NotDelivered, want)
	}
}
