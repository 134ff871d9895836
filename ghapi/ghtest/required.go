package ghtest

import (
	"net/http"
)

// RequiredCheck returns the check run a branch rule requiring the check
// name reads on sha: the newest run of that name (the one created last),
// of the app the rule expects when app is not 0, of any app otherwise;
// nil when there is none. GitHub shows and requires the latest run of a
// name per commit; an earlier run of the same name, whatever its
// conclusion, no longer decides.
func (s *Server) RequiredCheck(repo, sha, name string, app int64) *CheckRun {
	s.mu.Lock()
	defer s.mu.Unlock()
	var best *CheckRun
	for _, r := range s.checkRuns {
		if r.Repo != repo || r.HeadSHA != sha || r.Name != name || app != 0 && r.App.AppID != app {
			continue
		}
		if best == nil || r.ID > best.ID {
			best = r
		}
	}
	if best == nil {
		return nil
	}
	c := *best
	return &c
}

// between is something another client does while a request waits for
// its answer.
type between struct {
	match func(r *http.Request) bool
	do    func()
}

// Between runs do once, on the first REST request that match accepts,
// after the request is handled and before its answer reaches the client:
// another client's turn between this client's read and its next request
// (a parallel job that writes while this one has read and not yet
// written). do runs without the emulator's lock, so it may send requests
// of its own; the waiting client gets its answer when do returns.
func (s *Server) Between(match func(r *http.Request) bool, do func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.between = append(s.between, between{match: match, do: do})
}

// runBetween runs the Between functions r is the first match of.
func (s *Server) runBetween(r *http.Request) {
	s.mu.Lock()
	var due []func()
	kept := s.between[:0]
	for _, b := range s.between {
		if b.match(r) {
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
