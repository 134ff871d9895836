package cli

import (
	"context"

	"github.com/agcgate/agc-action/internal/action"
)

// runAction is the entry point of the GitHub Action (action.yml): package
// action, which reads its inputs the way the runner passes them (INPUT_*
// variables).
func runAction(e *Env, args []string) int {
	fs := newFlags(e, "action", "(inputs come from INPUT_* variables; see action.yml)")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	return action.Main(context.Background(), e)
}
