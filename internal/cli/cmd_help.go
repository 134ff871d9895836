package cli

import "strconv"

// runHelp implements "agc-sarif help COMMAND": the command's usage and
// flags, as "agc-sarif COMMAND -h" prints them.
func runHelp(e *Env, cmds map[string]command, args []string) int {
	c, ok := cmds[args[0]]
	if !ok || len(args) > 1 {
		_ = printLine(e.Stderr, "agc-sarif help: unknown command "+strconv.Quote(args[0]))
		usage(e.Stderr, cmds)
		return ExitUsage
	}
	if args[0] == "version" {
		_ = printLine(e.Stderr, "usage: agc-sarif version   (also agc-sarif --version, agc-sarif -v)")
		return ExitOK
	}
	return c.run(e, []string{"-h"})
}
