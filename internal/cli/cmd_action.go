package cli

import (
	"context"
)

// runAction is the entry point of the GitHub Action (action.yml): e.Action,
// package action's Main as main passes it in, which reads its inputs the
// way the runner passes them (INPUT_* variables).
func runAction(e *Env, args []string) int {
	if code, ok := noArgs(e, newFlags(e, "action", "(inputs come from INPUT_* variables; see action.yml)"), args); !ok {
		return code
	}
	return e.Action(context.Background(), e)
}
