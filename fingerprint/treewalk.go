package fingerprint

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
)

// walkTree reads the tree tree and every tree beneath it from the cat-file
// process, and lists their entries in the order of `git ls-tree -r`
// (sorted by path, checked as ParseLsTree checks a listing). When scope is
// not nil, it decides what the scope's patterns select of each entry as it
// is listed (before the symlink closure). The trees p prunes are not read:
// they are listed as empty, and the listing says so (listing.pruned).
//
// The trees are asked for breadth first and pipelined: a goroutine writes
// the requests for the subtrees of each tree as soon as it is parsed, so
// git reads and inflates the next trees while this one parses, lists and
// picks what git sent. (The requests go through a goroutine because git
// stops reading them while its answers wait to be read: writing them here
// could deadlock.)
func (g *Git) walkTree(ctx context.Context, tree string, rawLen int, scope *Scope, p *pruning) (*listing, error) {
	if err := g.start(ctx); err != nil {
		return nil, err
	}
	w := newRequester(g)
	defer w.stop()
	root := &treeNode{}
	m := newLister(root, 2*rawLen, scope)
	pending := []*subtree{{node: root, oid: tree}} // asked for, in order
	w.send(tree)
	var buf []byte
	texts := &textArena{}
	for len(pending) > 0 {
		s := pending[0]
		pending = pending[1:]
		g.pipe.patient = len(pending) >= patientBacklog
		o, err := g.read(s.oid, buf)
		if err != nil {
			return nil, w.fail(err)
		}
		if o.typ != "tree" {
			return nil, w.fail(fmt.Errorf("tree %q (%s) is a %s", strings.TrimSuffix(s.node.prefix, "/"), s.oid, o.typ))
		}
		buf = o.data[:cap(o.data)]
		if err := parseTree(s.node, o.data, rawLen, texts); err != nil {
			return nil, w.fail(err)
		}
		for i := range s.node.subs {
			sub := &s.node.subs[i]
			if p.skips(sub.node.prefix) {
				sub.node.parsed = true // listed as empty
				m.l.pruned = true
				continue
			}
			pending = append(pending, sub)
			w.send(sub.oid)
		}
		m.advance()
	}
	g.pipe.patient = false
	if err := w.stop(); err != nil {
		return nil, g.broken(err)
	}
	return m.done()
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

// pruning is which trees a walk need not read: those beneath which the
// scope selects nothing (Scope.prunes), unless a path to keep (a gate's
// configuration file, which is looked up in the listing) lies beneath.
type pruning struct {
	scope Scope
	keep  []string
}

// skips reports whether the walk leaves out the tree at prefix (its path
// and "/"). A nil pruning leaves out none.
func (p *pruning) skips(prefix string) bool {
	if p == nil {
		return false
	}
	for _, k := range p.keep {
		if strings.HasPrefix(k, prefix) {
			return false
		}
	}
	return p.scope.prunes(strings.Split(strings.TrimSuffix(prefix, "/"), "/"))
}
