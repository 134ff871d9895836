package fingerprint

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/agcgate/agc-action/subject"
)

// Walk reads the trees of commit's tree that w asks for from the
// cat-file process, w listing them (see subject.Walk).
//
// The trees are pipelined: a goroutine writes the requests for the
// subtrees of each tree as soon as w has parsed it, so git reads and
// inflates the next trees while w parses, lists and picks what git sent.
// (The requests go through a goroutine because git stops reading them
// while its answers wait to be read: writing them here could deadlock.)
func (g *Git) Walk(ctx context.Context, commit string, w *subject.Walk) error {
	if commit != g.commit {
		if _, err := g.Commit(ctx, commit); err != nil {
			return err
		}
	}
	if err := g.walk(ctx, w); err != nil {
		return fmt.Errorf("%s: commit %s: %w", g.Dir, commit, err)
	}
	return nil
}

func (g *Git) walk(ctx context.Context, w *subject.Walk) error {
	if err := g.start(ctx); err != nil {
		return err
	}
	req := newRequester(g)
	defer req.stop()
	w.Start(g.tree)
	req.send(g.tree)
	var buf []byte
	for {
		oid, pending := w.Next()
		if pending == 0 {
			break
		}
		g.pipe.patient = pending > patientBacklog
		o, err := g.read(oid, buf)
		if err != nil {
			return req.fail(err)
		}
		buf = o.data[:cap(o.data)]
		subs, err := w.Add(o.typ, o.data)
		if err != nil {
			return req.fail(err)
		}
		for _, s := range subs {
			req.send(s)
		}
	}
	g.pipe.patient = false
	if err := req.stop(); err != nil {
		return g.broken(err)
	}
	return nil
}

// patientBacklog is how many trees git must have left to send for the
// walk to read patiently (see patientReader).
const patientBacklog = 64

// requester writes requests to the cat-file process from a goroutine.
type requester struct {
	g       *Git
	in      io.Writer
	mu      sync.Mutex
	queue   []byte
	closed  bool
	wake    chan struct{}
	done    chan error
	stopped bool
	err     error
}

func newRequester(g *Git) *requester {
	w := &requester{g: g, in: g.in, wake: make(chan struct{}, 1), done: make(chan error, 1)}
	go w.loop()
	return w
}

// send queues a request for the object named name.
func (w *requester) send(name string) {
	w.mu.Lock()
	w.queue = append(append(w.queue, name...), '\n')
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

func (w *requester) loop() {
	var out []byte
	for range w.wake {
		w.mu.Lock()
		out, w.queue = w.queue, out[:0]
		closed := w.closed
		w.mu.Unlock()
		if len(out) > 0 {
			if _, err := w.in.Write(out); err != nil {
				w.done <- err
				return
			}
		}
		if closed {
			break
		}
	}
	w.done <- nil
}

// stop ends the goroutine once it has written every request, and returns
// the error of a write that failed.
func (w *requester) stop() error {
	if w.stopped {
		return w.err
	}
	w.stopped = true
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
	w.err = <-w.done
	return w.err
}

// fail stops the cat-file process (its answers can no longer be matched to
// requests, and the goroutine may be blocked writing to it), then the
// goroutine, and returns err.
func (w *requester) fail(err error) error {
	if w.g.batch != nil {
		w.g.batch.Process.Kill()
	}
	w.stop()
	w.g.Close()
	return err
}
