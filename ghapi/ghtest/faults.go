package ghtest

import (
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Fault is a failure the emulator answers with instead of serving a request.
type Fault struct {
	Status     int           // HTTP status
	Message    string        // GitHub's message
	RetryAfter int           // seconds, sent as Retry-After when > 0
	ResetIn    time.Duration // primary rate limit: X-RateLimit-Remaining 0, reset after this
}

// SecondaryRateLimit is GitHub's answer to too many requests too fast:
// status 403 or 429 with Retry-After.
func SecondaryRateLimit(status, retryAfter int) Fault {
	return Fault{Status: status, RetryAfter: retryAfter,
		Message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID."}
}

// PrimaryRateLimit is the hourly quota spent: 403 with X-RateLimit-Reset.
func PrimaryRateLimit(resetIn time.Duration) Fault {
	return Fault{Status: http.StatusForbidden, ResetIn: resetIn, Message: "API rate limit exceeded for installation ID 1."}
}

// ServerError is a 5xx answer.
func ServerError(status int) Fault {
	return Fault{Status: status, Message: "Server Error"}
}

// Inject queues faults for the operation op (an operation id such as
// "pulls/create-review", "graphql" for any GraphQL request, or "" for any
// request). Each fault answers one request, in order.
func (s *Server) Inject(op string, faults ...Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults[op] = append(s.faults[op], faults...)
}

// takeFault pops the next fault for op. The caller holds s.mu.
func (s *Server) takeFault(op string) (Fault, bool) {
	for _, key := range []string{op, ""} {
		if q := s.faults[key]; len(q) > 0 {
			s.faults[key] = q[1:]
			return q[0], true
		}
	}
	return Fault{}, false
}

func writeFault(w http.ResponseWriter, f Fault, now time.Time) {
	if f.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(f.RetryAfter))
	}
	if f.ResetIn > 0 {
		w.Header().Set("X-RateLimit-Limit", "5000")
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Used", "5000")
		w.Header().Set("X-RateLimit-Reset", fmt.Sprint(now.Add(f.ResetIn).Unix()))
		w.Header().Set("X-RateLimit-Resource", "core")
	}
	writeError(w, f.Status, f.Message)
}

// rateHeaders are sent on every ordinary answer, as GitHub does.
func rateHeaders(w http.ResponseWriter, now time.Time, used int) {
	w.Header().Set("X-RateLimit-Limit", "5000")
	w.Header().Set("X-RateLimit-Remaining", strconv.Itoa(max(0, 5000-used)))
	w.Header().Set("X-RateLimit-Used", strconv.Itoa(used))
	w.Header().Set("X-RateLimit-Reset", fmt.Sprint(now.Add(time.Hour).Unix()))
	w.Header().Set("X-RateLimit-Resource", "core")
}
