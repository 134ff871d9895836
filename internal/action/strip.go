package action

import (
	"fmt"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/carry"
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
		c.lint = append(c.lint, fmt.Sprintf("%s: members under %s not checked: %v", src, carry.OwnPrefix, err))
		return raw
	}
	if len(gone) == 0 {
		return raw
	}
	for _, s := range gone {
		c.lint = append(c.lint, fmt.Sprintf("%s: %s", src, s))
	}
	if raw == nil {
		return nil // embedded as agc.Encode writes it, stripped
	}
	if out, err := agc.Encode(r); err == nil {
		return out
	}
	return nil // embedded as agc.Encode writes it
}
