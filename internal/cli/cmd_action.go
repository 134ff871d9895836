package cli

import (
	"context"
	"strconv"

	"github.com/agcgate/agc-action/internal/action"
)

// runAction is the entry point of the GitHub Action (action.yml): package
// action, which reads its inputs the way the runner passes them (INPUT_*
// variables).
func runAction(e *Env, args []string) int {
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
	return action.Main(context.Background(), e)
}
