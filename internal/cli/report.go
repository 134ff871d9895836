package cli

import (
	"fmt"
	"io"

	"github.com/agcgate/agc-action/diag"
	"github.com/agcgate/agc-action/validate"
)

// Every command prints what is wrong with an input through printDiag, so
// that the same bad input reads the same from each of them: one line,
// its place first in diag's form (FILE:LINE:COLUMN: POINTER: MESSAGE).

// printDiag writes one diagnostic line, after prefix.
func printDiag(w io.Writer, prefix, text string) error {
	_, err := fmt.Fprintf(w, "%s%s\n", prefix, diag.OneLine(text))
	return err
}

// printError reports a failure of command cmd on standard error.
func printError(e *Env, cmd string, err error) {
	_ = printDiag(e.Stderr, "agc-sarif "+cmd+": ", err.Error())
}

// printLint reports advice about an input that was still read.
func printLint(e *Env, l diag.Lint) {
	_ = printDiag(e.Stderr, "lint: ", l.String())
}

// printViolation writes one violation of the contract.
func printViolation(w io.Writer, v validate.Violation) error {
	return printDiag(w, "", v.String())
}
