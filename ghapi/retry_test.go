package ghapi

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/google/go-cmp/cmp"
)

func TestRetries(t *testing.T) {
	tests := []struct {
		name   string
		faults []ghtest.Fault
		waits  []time.Duration
		fail   int // status of the error, 0 for success
	}{
		{"5xx with exponential backoff", []ghtest.Fault{ghtest.ServerError(502), ghtest.ServerError(503), ghtest.ServerError(500)},
			[]time.Duration{time.Second, 2 * time.Second, 4 * time.Second}, 0},
		{"secondary rate limit 403 honours Retry-After", []ghtest.Fault{ghtest.SecondaryRateLimit(403, 7)}, []time.Duration{7 * time.Second}, 0},
		{"secondary rate limit 429 honours Retry-After", []ghtest.Fault{ghtest.SecondaryRateLimit(429, 3)}, []time.Duration{3 * time.Second}, 0},
		{"bounded in count", []ghtest.Fault{ghtest.ServerError(502), ghtest.ServerError(502), ghtest.ServerError(502),
			ghtest.ServerError(502), ghtest.ServerError(502), ghtest.ServerError(502)},
			[]time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second}, 502},
		{"a 5xx bounded in time", []ghtest.Fault{{Status: 503, Message: "busy", RetryAfter: 100}, {Status: 503, Message: "busy", RetryAfter: 100}},
			[]time.Duration{100 * time.Second}, 503},
		{"a rate limit bounded by the run's budget", []ghtest.Fault{ghtest.SecondaryRateLimit(403, 100), ghtest.SecondaryRateLimit(403, 100)},
			[]time.Duration{100 * time.Second, 100 * time.Second}, 0},
		{"a rate limit past the run's budget", []ghtest.Fault{ghtest.SecondaryRateLimit(403, 200), ghtest.SecondaryRateLimit(403, 200)},
			[]time.Duration{200 * time.Second}, 403},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := ghtest.New(t, ghtest.Options{})
			sl := &fakeSleep{}
			c := newClient(t, srv, ghtest.TokenActions, sl)
			srv.Inject("repos/create-commit-status", tc.faults...)
			err := postStatus(c)
			if tc.fail == 0 && err != nil || tc.fail != 0 && !isHTTP(err, tc.fail) {
				t.Fatalf("err = %v, want status %d", err, tc.fail)
			}
			if diff := cmp.Diff(tc.waits, sl.Waits()); diff != "" {
				t.Errorf("waits (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPrimaryRateLimitWaitsForReset(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	sl := &fakeSleep{}
	c := newClient(t, srv, ghtest.TokenActions, sl)
	srv.Inject("repos/create-commit-status", ghtest.PrimaryRateLimit(30*time.Second))
	if err := postStatus(c); err != nil {
		t.Fatal(err)
	}
	if len(sl.Waits()) != 1 || sl.Waits()[0] < 29*time.Second || sl.Waits()[0] > 32*time.Second {
		t.Errorf("waits %v, want one of about 31 s (until X-RateLimit-Reset)", sl.Waits())
	}
}

func TestJitterStaysInRange(t *testing.T) {
	p := RetryPolicy{}.withDefaults()
	for i := 0; i < 1000; i++ {
		if d := p.Jitter(10 * time.Second); d < 5*time.Second || d > 10*time.Second {
			t.Fatalf("jitter %v outside [5s, 10s]", d)
		}
	}
}

// TestRetryAfterHTTPDate: Retry-After may be an HTTP date (RFC 9110
// §10.2.3) as well as seconds.
func TestRetryAfterHTTPDate(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	tr := newRetryTransport(nil, RetryPolicy{Now: func() time.Time { return now }})
	for hdr, want := range map[string]time.Duration{
		"7":                             7 * time.Second,
		"Mon, 30 Nov 2026 12:00:09 GMT": 9 * time.Second,
		"Mon, 30 Nov 2026 11:59:00 GMT": 0,
	} {
		resp := &http.Response{StatusCode: http.StatusServiceUnavailable, Header: http.Header{"Retry-After": []string{hdr}}}
		if d, ok := tr.backoff(resp, 0); !ok || d != want {
			t.Errorf("Retry-After %q: wait %v (retry %v), want %v", hdr, d, ok, want)
		}
	}
}

// script answers each request with the next of its answers and keeps
// every answer it gave: what GitHub sent.
type script struct {
	answers []int
	sent    []*http.Response
}

func (s *script) RoundTrip(r *http.Request) (*http.Response, error) {
	code := s.answers[min(len(s.sent), len(s.answers)-1)]
	h := http.Header{}
	switch code {
	case http.StatusTooManyRequests:
		h.Set("Retry-After", "400") // past the budget
	case http.StatusForbidden:
		h.Set("Retry-After", "4") // a secondary rate limit
	}
	resp := &http.Response{StatusCode: code, Header: h, Body: io.NopCloser(strings.NewReader(`{"message":"m"}`)), Request: r}
	s.sent = append(s.sent, resp)
	return resp, nil
}

// TestRetryReturnsWhatGitHubSent: whatever the retries do, the answer the
// transport returns is one GitHub sent, the last one, never one made up;
// a write that GitHub applied despite a 5xx is answered with that 5xx,
// not sent again, and one it did not apply is sent again.
func TestRetryReturnsWhatGitHubSent(t *testing.T) {
	tests := []struct {
		name    string
		answers []int
		applied string // "": the write is not checked; else whether it took effect
		sends   int
	}{
		{"a 5xx then success", []int{502, 200}, "", 2},
		{"5xx past the retries", []int{502}, "", 6},
		{"a rate limit past the budget", []int{429}, "", 1},
		{"a checked write answered 5xx, made", []int{502, 200}, "yes", 1},
		{"a checked write answered 5xx, not made", []int{502, 201}, "no", 2},
		{"a checked write rate limited, then answered", []int{403, 201}, "no", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &script{answers: tc.answers}
			tr := newRetryTransport(s, RetryPolicy{TotalWait: 5 * time.Minute, Sleep: func(context.Context, time.Duration) error { return nil }})
			ctx := context.Background()
			if tc.applied != "" {
				ctx = checkApplied(ctx, func(context.Context) bool { return tc.applied == "yes" })
			}
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.github.invalid/repos/o/r/pulls/2/reviews", nil)
			resp, err := tr.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.sent) != tc.sends {
				t.Errorf("sent %d times, want %d", len(s.sent), tc.sends)
			}
			if last := s.sent[len(s.sent)-1]; resp != last {
				t.Errorf("returned %q, not GitHub's last answer %q", resp.Status, last.Status)
			}
		})
	}
}
