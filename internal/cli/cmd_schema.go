package cli

import (
	"fmt"
	"strconv"

	"github.com/agcgate/agc-action/schema"
)

// runSchema implements "agc-sarif schema": it prints the AGC JSON Schema
// (draft 2020-12) the tool validates against, so other tools can use the
// very same document. It takes no arguments.
func runSchema(e *Env, args []string) int {
	fs := newFlags(e, "schema", "")
	pos, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(pos) != 0 {
		_ = printLine(e.Stderr, "agc-sarif schema: takes no arguments, got "+strconv.Quote(pos[0]))
		fs.Usage()
		return ExitUsage
	}
	if _, err := e.Stdout.Write(schema.JSON()); err != nil {
		fmt.Fprintf(e.Stderr, "agc-sarif schema: write: %v\n", err)
		return ExitUsage
	}
	return ExitOK
}
