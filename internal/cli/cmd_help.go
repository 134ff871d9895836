package cli

// runHelp implements "agc-sarif help COMMAND": the command's usage and
// flags on stdout, as "agc-sarif COMMAND -h" prints them.
func runHelp(e *Env, cmds map[string]command, args []string) int {
	c, ok := cmds[args[0]]
	if !ok || len(args) > 1 {
		return unknownCommand(e, cmds, args[0])
	}
	if args[0] == "version" {
		_ = printLine(e.Stdout, "usage: agc-sarif version   (also agc-sarif --version, agc-sarif -v)")
		return ExitOK
	}
	return c.run(e, []string{"-h"})
}
