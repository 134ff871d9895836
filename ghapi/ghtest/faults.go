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
	defer s.lock()()
	s.faults[op] = append(s.faults[op], faults...)
}

// InjectWrite queues faults that answer the writes (REST requests other
// than GET, GraphQL mutations) from the nth write from now on, one fault
// a write, in order: a secondary rate limit that starts mid-run.
func (s *Server) InjectWrite(nth int, faults ...Fault) {
	defer s.lock()()
	s.writeFaultAt = s.writes + nth
	s.faults["write"] = append(s.faults["write"], faults...)
}

// takeFault counts a write and pops the fault that answers q: one
// injected for its operation, for any GraphQL request or for any request,
// else, for a write once InjectWrite's turn has come, one of those. The
// caller holds s.mu.
func (s *Server) takeFault(q *request) (Fault, bool) {
	keys := []string{q.op, ""}
	if q.gql != nil {
		keys = []string{q.op, "graphql", ""}
	}
	if q.write {
		if s.writes++; s.writeFaultAt > 0 && s.writes >= s.writeFaultAt {
			keys = append(keys, "write")
		}
	}
	for _, key := range keys {
		if fs := s.faults[key]; len(fs) > 0 {
			s.faults[key] = fs[1:]
			return fs[0], true
		}
	}
	return Fault{}, false
}

func writeFault(w http.ResponseWriter, f Fault, now time.Time) {
	if f.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(f.RetryAfter))
	}
	if f.ResetIn > 0 {
		rateHeaders(w, 5000, f.ResetIn, now)
	}
	writeError(w, f.Status, f.Message)
}

// rateHeaders are sent on every ordinary answer, as GitHub does, and
// with a primary rate limit.
func rateHeaders(w http.ResponseWriter, used int, resetIn time.Duration, now time.Time) {
	w.Header().Set("X-RateLimit-Limit", "5000")
	w.Header().Set("X-RateLimit-Remaining", strconv.Itoa(max(0, 5000-used)))
	w.Header().Set("X-RateLimit-Used", strconv.Itoa(used))
	w.Header().Set("X-RateLimit-Reset", fmt.Sprint(now.Add(resetIn).Unix()))
	w.Header().Set("X-RateLimit-Resource", "core")
}

func (s *Server) totalCount() int {
	n := 0
	for _, c := range s.counts {
		n += c
	}
	return n
}

// between is something another client does while a request waits for
// its answer.
type between struct {
	match func(op string, r *http.Request) bool
	do    func()
}

// Between runs do once, on the first request that match accepts, after
// the request is served and before its answer reaches the client: another
// client's turn between this client's read and its next request (a
// parallel job that writes while this one has read and not yet written).
// do runs without the emulator's lock, so it may send requests of its own;
// the waiting client gets its answer when do returns.
func (s *Server) Between(match func(r *http.Request) bool, do func()) {
	s.addBetween(func(_ string, r *http.Request) bool { return match(r) }, do)
}

// PushAfter pushes sha with these files to the pull request repo#number
// once the nth request of operation op ("" for any request) from now has
// been served, before its answer reaches the client: a push that lands
// while a run is between its reads and its writes.
func (s *Server) PushAfter(op string, nth int, repo string, number int, sha string, files []File) {
	n := 0
	s.addBetween(func(o string, _ *http.Request) bool {
		if op == "" || o == op {
			n++
		}
		return n == nth
	}, func() { s.SetHead(repo, number, sha, files) })
}

func (s *Server) addBetween(match func(op string, r *http.Request) bool, do func()) {
	defer s.lock()()
	s.between = append(s.between, between{match: match, do: do})
}

// runBetween runs the Between functions the request r of operation op is
// the first match of.
func (s *Server) runBetween(op string, r *http.Request) {
	s.mu.Lock()
	var due []func()
	kept := s.between[:0]
	for _, b := range s.between {
		if b.match(op, r) {
			due = append(due, b.do)
			continue
		}
		kept = append(kept, b)
	}
	s.between = kept
	s.mu.Unlock()
	for _, do := range due {
		do()
	}
}
