package cli

import (
	"fmt"

	"github.com/agcgate/agc-action/schema"
)

// runSchema implements "agc-sarif schema": it prints the AGC JSON Schema
// (draft 2020-12) the tool validates against, so other tools can use the
// very same document. It takes no arguments.
func runSchema(e *Env, args []string) int {
	if code, ok := noArgs(e, newFlags(e, "schema", ""), args); !ok {
		return code
	}
	if _, err := e.Stdout.Write(schema.JSON()); err != nil {
		fmt.Fprintf(e.Stderr, "agc-sarif schema: write: %v\n", err)
		return ExitUsage
	}
	return ExitOK
}
