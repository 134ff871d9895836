package ghapi

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// RetryPolicy bounds retries of 5xx answers and rate limits. Zero fields
// take the defaults.
type RetryPolicy struct {
	MaxRetries int           // retries per request (default 5)
	MaxWait    time.Duration // total waiting on 5xx per request (default 2 minutes)
	BaseDelay  time.Duration // first backoff step (default 1 s), doubled each retry
	MaxDelay   time.Duration // longest single backoff wait (default 30 s)
	// TotalWait bounds the waiting of all of one client's requests
	// together (default DefaultTotalWait), rate limits and 5xx: a rate
	// limit is waited out as GitHub says within it. Once a wait would
	// take it past the bound, or a rate limit outlasts MaxRetries, the
	// answer is returned as it is and no further request is sent
	// (ErrRetryBudget): GitHub asks that a rate-limited client stop.
	TotalWait time.Duration
	// Sleep waits d or until ctx ends; tests give one that does not sleep.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock X-RateLimit-Reset is read against.
	Now func() time.Time
	// Jitter spreads a backoff wait; the default picks uniformly in [d/2, d].
	Jitter func(d time.Duration) time.Duration
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxRetries == 0 {
		p.MaxRetries = 5
	}
	if p.MaxWait == 0 {
		p.MaxWait = 2 * time.Minute
	}
	if p.TotalWait == 0 {
		p.TotalWait = DefaultTotalWait
	}
	if p.BaseDelay == 0 {
		p.BaseDelay = time.Second
	}
	if p.MaxDelay == 0 {
		p.MaxDelay = 30 * time.Second
	}
	if p.Sleep == nil {
		p.Sleep = sleepCtx
	}
	if p.Now == nil {
		p.Now = time.Now
	}
	if p.Jitter == nil {
		p.Jitter = func(d time.Duration) time.Duration {
			if d <= 1 {
				return d
			}
			return d/2 + rand.N(d/2+1)
		}
	}
	return p
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// DefaultTotalWait is the default RetryPolicy.TotalWait, the Action's
// input retry-budget.
const DefaultTotalWait = 5 * time.Minute

// MaxRetryBudget is the most a run may be given to wait in all
// (TotalWait): GitHub ends a job after 6 hours.
const MaxRetryBudget = 6 * time.Hour

type retryTransport struct {
	next http.RoundTripper
	p    RetryPolicy

	mu    sync.Mutex
	spent time.Duration // waited so far, all requests together
	out   bool          // the budget ran out: send nothing more
}

// ErrRetryBudget is the error of a request not sent because the client's
// total retry wait (RetryPolicy.TotalWait) ran out on an earlier one.
var ErrRetryBudget = errors.New("not sent: GitHub kept answering with rate limits and the run's retry budget (input retry-budget) is spent")

// take reserves wait from the total budget, or marks it spent.
func (t *retryTransport) take(wait time.Duration) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.spent+wait > t.p.TotalWait {
		t.out = true
		return false
	}
	t.spent += wait
	return true
}

// stop sends nothing more: GitHub is still rate limiting the client.
func (t *retryTransport) stop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.out = true
}

func (t *retryTransport) spentOut() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.out
}

func newRetryTransport(next http.RoundTripper, p RetryPolicy) *retryTransport {
	return &retryTransport{next: next, p: p.withDefaults()}
}

// RoundTrip sends r, and sends it again after a wait while GitHub answers
// 5xx or a rate limit, within the policy's bounds. What it returns is
// always GitHub's last answer: when the bounds are reached, and at once
// on a 5xx to a checked write (checkApplied) that took effect.
func (t *retryTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if t.spentOut() {
		return nil, ErrRetryBudget
	}
	applied, _ := r.Context().Value(appliedKey{}).(func(context.Context) bool)
	var waited time.Duration
	for attempt := 0; ; attempt++ {
		req := r
		if attempt > 0 {
			if r.Body != nil && r.GetBody == nil {
				return nil, errNoReplay
			}
			req = r.Clone(r.Context())
			if r.GetBody != nil {
				b, err := r.GetBody()
				if err != nil {
					return nil, err
				}
				req.Body = b
			}
		}
		resp, err := t.next.RoundTrip(req)
		if err != nil {
			return nil, err
		}
		if applied != nil && resp.StatusCode >= 500 && retryable(resp) && applied(context.WithValue(r.Context(), appliedKey{}, nil)) {
			return resp, nil
		}
		wait, ok := t.again(resp, attempt, waited)
		if !ok {
			return resp, nil
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err := t.p.Sleep(r.Context(), wait); err != nil {
			return nil, err
		}
		waited += wait
	}
}

// again says whether resp, the answer to attempt after waited, is sent
// again and after what wait, taken from the client's budget. A rate limit
// is waited out within the client's total budget; a 5xx within MaxWait
// per request. A rate limit not waited out stops the client.
func (t *retryTransport) again(resp *http.Response, attempt int, waited time.Duration) (time.Duration, bool) {
	wait, retry := t.backoff(resp, attempt)
	limited := retry && resp.StatusCode < 500
	if !retry || attempt >= t.p.MaxRetries || !limited && waited+wait > t.p.MaxWait || !t.take(wait) {
		if limited {
			t.stop()
		}
		return 0, false
	}
	return wait, true
}

var errNoReplay = errors.New("ghapi: cannot retry a request whose body cannot be replayed")

// backoff says whether resp is worth retrying and after how long:
// Retry-After when GitHub sends it, the rate limit reset for a spent
// quota, else exponential backoff with jitter.
func (t *retryTransport) backoff(resp *http.Response, attempt int) (time.Duration, bool) {
	if !retryable(resp) {
		return 0, false
	}
	if s := resp.Header.Get("Retry-After"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n >= 0 {
			return time.Duration(n) * time.Second, true
		}
		if at, err := http.ParseTime(s); err == nil { // the HTTP-date form (RFC 9110 §10.2.3)
			return max(at.Sub(t.p.Now()), 0), true
		}
	}
	if resp.Header.Get("X-RateLimit-Remaining") == "0" {
		if n, err := strconv.ParseInt(resp.Header.Get("X-RateLimit-Reset"), 10, 64); err == nil {
			return max(time.Unix(n, 0).Sub(t.p.Now())+time.Second, 0), true
		}
	}
	d := t.p.BaseDelay << min(attempt, 20)
	return t.p.Jitter(min(d, t.p.MaxDelay)), true
}

// retryable: 5xx, 429, and 403 that is a rate limit (not a permission).
func retryable(resp *http.Response) bool {
	switch c := resp.StatusCode; {
	case c >= 500 && c != http.StatusNotImplemented:
		return true
	case c == http.StatusTooManyRequests:
		return true
	case c != http.StatusForbidden:
		return false
	}
	if resp.Header.Get("Retry-After") != "" || resp.Header.Get("X-RateLimit-Remaining") == "0" {
		return true
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return strings.Contains(strings.ToLower(string(body)), "rate limit")
}

type appliedKey struct{}

// checkApplied marks a write that GitHub may make and still answer with a
// 5xx (a 502 or 504 can come after the change): on such an answer the
// transport asks applied whether the write took effect, and if so returns
// that 5xx as it is, as sending it again would make it twice; if not it
// sends it again as any other. applied tells the caller what it found.
func checkApplied(ctx context.Context, applied func(context.Context) bool) context.Context {
	return context.WithValue(ctx, appliedKey{}, applied)
}
