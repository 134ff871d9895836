package bridge

import (
	"errors"

	"github.com/agcgate/agc-action/diag"
)

// An input that cannot be converted is a *diag.Error. Its place names the
// file and the JSON pointer (RFC 6901) into the JSON document read: with
// the line and column when the file is that document, with the line when
// the document is a fenced block of an agent's message.

// place is where pointer p of doc lies.
func (d *doc) place(p string) diag.Place {
	at := diag.Place{File: d.file, Pointer: p}
	diag.Locate(d.src, &at)
	if d.line > 0 {
		// The block's content lost its indentation: lines are kept, columns are not.
		return diag.Place{File: d.file, Line: d.line + at.Line, Pointer: p}
	}
	return at
}

// errAt builds a *diag.Error at pointer p of doc.
func (d *doc) errAt(p string, format string, args ...any) *diag.Error {
	return diag.Errorf(d.place(p), format, args...)
}

// lintAt is advice about the value at pointer p of doc.
func (d *doc) lintAt(p, msg string) diag.Lint {
	return diag.Lint{Place: d.place(p), Message: msg}
}

// syntaxError turns a decode failure of agc.CheckSyntax on the document
// into an error about the converted input, keeping its place.
func (d *doc) syntaxError(what string, err error) error {
	var ae *diag.Error
	if !errors.As(err, &ae) {
		return diag.Errorf(diag.Place{File: d.file, Line: d.line}, "%s: %v", what, err)
	}
	at := ae.Place
	if d.line > 0 {
		at = diag.Place{File: d.file, Line: d.line + ae.Line, Pointer: ae.Pointer}
	}
	return diag.Errorf(at, "%s is not well-formed JSON: %s: %s", what, ae.Class, ae.Msg)
}
