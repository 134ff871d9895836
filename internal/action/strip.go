package action

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
// agc.Encode writes it).
func (c *collected) stripOwn(src string, r *agc.Response, raw []byte) []byte {
	gone, err := carry.Strip(r)
	if err != nil {
		// Decoded strictly, its members are objects; say so if not.
		c.lint.add(fmt.Sprintf("%s: members under %s not checked: %v", src, carry.OwnPrefix, err))
		return raw
	}
	if len(gone) == 0 {
		return raw
	}
	for _, s := range gone {
		c.lint.add(fmt.Sprintf("%s: %s", src, s))
	}
	if raw == nil {
		return nil // embedded as agc.Encode writes it, stripped
	}
	if out, err := agc.Encode(r); err == nil {
		return out
	}
	return nil // embedded as agc.Encode writes it
}

// lintLines are the lint lines of a run, for the log: the first
// diag.MaxLints in full and a count of the rest. Each input's lints are
// bounded already (diag.Bound), but the inputs are many, and an answer
// draws a line for every agc-action/ member it brings (stripOwn), so the
// run's lines are bounded too.
type lintLines struct {
	kept []string
	more int
}

func (l *lintLines) add(line string) {
	if len(l.kept) < diag.MaxLints {
		l.kept = append(l.kept, line)
		return
	}
	l.more++
}

// lines are the kept lines and, when some were only counted, one more
// that says how many.
func (l *lintLines) lines() []string {
	if l.more == 0 {
		return l.kept
	}
	return append(l.kept[:len(l.kept):len(l.kept)], fmt.Sprintf("%d more lint lines not shown (%d in all); the first %d are above", l.more, l.more+len(l.kept), len(l.kept)))
}
