package cli

import (
	"fmt"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/carry"
)

// stripOwn removes the members under agc-action/ from an answer given to
// post (they are agc-action's alone), with a warning naming the file and
// the JSON pointer of each, and returns the bytes to embed: raw when
// nothing was removed, nil (encode again) otherwise.
func stripOwn(e *Env, where string, r *agc.Response, raw []byte) ([]byte, error) {
	gone, err := carry.Strip(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	for _, s := range gone {
		_ = printLine(e.Stderr, fmt.Sprintf("agc-sarif github: %s: warning: %s", where, s))
	}
	if len(gone) > 0 {
		return nil, nil
	}
	return raw, nil
}
