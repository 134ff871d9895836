package bridge

import (
	"errors"
	"fmt"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
)

// Error is an input that cannot be converted. Its place names the file and
// the JSON pointer (RFC 6901) into the JSON document read: with the line
// and column when the file is that document, with the line when the
// document is a fenced block of an agent's message.
type Error struct {
	diag.Place
	Msg string
}

func (e *Error) Error() string { return e.Place.Text(e.Msg) }

// place is where pointer p of doc lies (see Error).
func (d *doc) place(p string) diag.Place {
	at := diag.Place{File: d.file, Pointer: p}
	diag.Locate(d.src, &at)
	if d.line > 0 {
		// The block's content lost its indentation: lines are kept, columns are not.
		return diag.Place{File: d.file, Line: d.line + at.Line, Pointer: p}
	}
	return at
}

// errAt builds an *Error at pointer p of doc.
func (d *doc) errAt(p string, format string, args ...any) *Error {
	return &Error{Place: d.place(p), Msg: fmt.Sprintf(format, args...)}
}

// lintAt is advice about the value at pointer p of doc.
func (d *doc) lintAt(p, msg string) diag.Lint {
	return diag.Lint{Place: d.place(p), Message: msg}
}

// syntaxError turns a decode failure of agc.CheckSyntax on the document
// into an *Error of this package, keeping its place.
func (d *doc) syntaxError(what string, err error) error {
	var ae *agc.Error
	if !errors.As(err, &ae) {
		return &Error{Place: diag.Place{File: d.file, Line: d.line}, Msg: fmt.Sprintf("%s: %v", what, err)}
	}
	at := ae.Place
	if d.line > 0 {
		at = diag.Place{File: d.file, Line: d.line + ae.Line, Pointer: ae.Pointer}
	}
	return &Error{Place: at, Msg: fmt.Sprintf("%s is not well-formed JSON: %s: %s", what, ae.Class, ae.Msg)}
}
