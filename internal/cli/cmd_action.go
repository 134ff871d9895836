package cli

import (
	"context"
	"strconv"
)

// runAction is the entry point of the GitHub Action (action.yml): d.Action,
// package action's Main as main passes it in, which reads its inputs the
// way the runner passes them (INPUT_* variables).
func (d Deps) runAction(e *Env, args []string) int {
	fs := newFlags(e, "action", "(inputs come from INPUT_* variables; see action.yml)")
	pos, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		_ = printLine(e.Stderr, "agc-sarif action: takes no arguments, got "+strconv.Quote(pos[0]))
		fs.Usage()
		return ExitUsage
	}
	return d.Action(context.Background(), e)
}
