package cli

import (
	"fmt"
	"io"

	"github.com/agcgate/agc-action/diag"
	"github.com/agcgate/agc-action/internal/logsafe"
	"github.com/agcgate/agc-action/validate"
)

// Every command prints what is wrong with an input through printDiag, so
// that the same bad input reads the same from each of them: one line,
// its place first in diag's form (FILE:LINE:COLUMN: POINTER: MESSAGE).
//
// What a command prints may hold the judged party's text (file names,
// answers, SARIF logs), and under GitHub Actions the runner reads every
// line as a possible workflow command (internal/logsafe): a line of ours
// goes through printLine, output for people through writeOut.

// printLine writes s as one line: line breaks and other control
// characters escaped, "##[" broken, never a command (logsafe.Line).
func printLine(w io.Writer, s string) error {
	_, err := fmt.Fprintln(w, logsafe.Line(s))
	return err
}

// printDiag writes one diagnostic line, after prefix.
func printDiag(w io.Writer, prefix, text string) error {
	return printLine(w, prefix+diag.OneLine(text))
}

// printError reports a failure of command cmd on standard error.
func printError(e *Env, cmd string, err error) {
	_ = printDiag(e.Stderr, "agc-sarif "+cmd+": ", err.Error())
}

// printLints reports advice about an input that was still read: at most
// diag.MaxLints lines of it, and one that says how many more there were
// (diag.Bound), however many the input drew.
func printLints(e *Env, lints []diag.Lint) {
	for _, l := range diag.Bound(lints) {
		_ = printDiag(e.Stderr, "lint: ", l.String())
	}
}

// printViolation writes one violation of the contract.
func printViolation(w io.Writer, v validate.Violation) error {
	return printDiag(w, "", v.String())
}

// writeOut writes a command's output to standard output. JSON for a
// program is written as logsafe.JSON leaves it ("##[" as "##\u005b", the
// same JSON), so pipes keep working; text for people, and anything that
// is not JSON after all, is wrapped in a ::stop-commands:: block under
// GitHub Actions (logsafe.Block) and written as it is elsewhere.
func writeOut(e *Env, data []byte, forPeople bool) error {
	if !forPeople {
		if safe, ok := logsafe.JSON(data); ok {
			_, err := e.Stdout.Write(safe)
			return err
		}
	}
	return logsafe.Block(e.Stdout, logsafe.InActions(e.Getenv), data)
}
