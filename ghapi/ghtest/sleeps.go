package ghtest

import (
	"context"
	"sync"
	"time"
)

// Sleeps stands in for ghapi's Sleep in tests: it records each wait
// instead of sleeping, and ends early only when ctx does.
type Sleeps struct {
	mu    sync.Mutex
	waits []time.Duration
}

// Sleep records d.
func (s *Sleeps) Sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.waits = append(s.waits, d)
	return ctx.Err()
}

// Waits returns the waits recorded so far, in order.
func (s *Sleeps) Waits() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}
