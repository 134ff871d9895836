package cli

import (
	"io"

	"github.com/agcgate/agc-action/internal/action"
)

// testEnv is the Env cmd/agc-sarif's main builds (its env), with the
// given streams and variables, so that the tests run the command table
// main runs, "action" included.
func testEnv(stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) *Env {
	return &Env{Stdin: stdin, Stdout: stdout, Stderr: stderr, Getenv: getenv, Version: "test", Action: action.Main}
}
