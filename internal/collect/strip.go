package collect

import (
	"fmt"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/carry"
	"github.com/agcgate/agc-action/diag"
)

// stripOwn removes from an answer the members under agc-action/, which
// are agc-action's alone (a carry record, a gate subject: an answer that
// brings one forges it), with a lint line for each naming the file and the
// JSON pointer, and returns the bytes to embed: raw when nothing was
// removed, else the answer encoded again (nil stays nil: embedded as
// agc.Encode writes it). Members it cannot check (not objects, which a
// strict decoder does not let through) are a lint line, and the answer is
// kept as it is.
func (c *Set) stripOwn(src string, r *agc.Response, raw []byte) []byte {
	gone, err := carry.Strip(r)
	if err != nil {
		c.Lint.Add(src, fmt.Sprintf("members under %s not checked: %v", carry.OwnPrefix, err))
		return raw
	}
	if len(gone) == 0 {
		return raw
	}
	for _, s := range gone {
		c.Lint.Add(src, s.String())
	}
	if raw == nil {
		return nil // embedded as agc.Encode writes it, stripped
	}
	if out, err := agc.Encode(r); err == nil {
		return out
	}
	return nil // embedded as agc.Encode writes it
}

// Lint is one lint line: where (a file, and a place in it; "" when the
// message names it) and what.
type Lint struct{ Where, Message string }

// String is the line as "WHERE: MESSAGE".
func (l Lint) String() string {
	if l.Where == "" {
		return l.Message
	}
	return l.Where + ": " + l.Message
}

// Lints are the lint lines of a run, for the log: the first diag.MaxLints
// in full and a count of the rest. Each input's lints are bounded already
// (diag.Bound), but the inputs are many, and an answer draws a line for
// every agc-action/ member it brings (stripOwn), so the run's lines are
// bounded too.
type Lints struct {
	kept []Lint
	more int
}

// Add keeps one line, or counts it.
func (l *Lints) Add(where, msg string) {
	if len(l.kept) < diag.MaxLints {
		l.kept = append(l.kept, Lint{where, msg})
		return
	}
	l.more++
}

// AddAll adds an input's lints, bounded (diag.Bound), each as it prints.
func (l *Lints) AddAll(lints []diag.Lint) {
	for _, d := range diag.Bound(lints) {
		l.Add("", d.String())
	}
}

// Lines are the kept lines and, when some were only counted, one more
// (with no Where) that says how many.
func (l *Lints) Lines() []Lint {
	if l.more == 0 {
		return l.kept
	}
	return append(l.kept[:len(l.kept):len(l.kept)], Lint{Message: fmt.Sprintf("%d more lint lines not shown (%d in all); the first %d are above", l.more, l.more+len(l.kept), len(l.kept))})
}
