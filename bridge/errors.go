package bridge

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/agcgate/agc-action/agc"
)

// Error is an input that cannot be converted. It names the place: a line of
// an agent's message (when known) and a JSON pointer (RFC 6901) into the
// JSON document read.
type Error struct {
	File    string
	Line    int    // 1-based line in the file, 0 when not known
	Pointer string // JSON pointer into the document; "" is the whole document
	Msg     string
}

func (e *Error) Error() string {
	where := e.File
	if e.Line > 0 {
		where += ":" + strconv.Itoa(e.Line)
	}
	if e.Pointer != "" {
		where += "#" + e.Pointer
	}
	return where + ": " + e.Msg
}

// Lint is advisory: the input converts, but it does not follow its own
// format's rules to the letter. The caller prints it; it changes no exit code.
type Lint struct {
	Line    int    // 1-based line in the file, 0 when not known
	Pointer string // JSON pointer into the document read
	Message string
}

func (l Lint) String() string {
	where := ""
	if l.Line > 0 {
		where = "line " + strconv.Itoa(l.Line)
	}
	if l.Pointer != "" {
		if where != "" {
			where += " "
		}
		where += "#" + l.Pointer
	}
	if where == "" {
		return l.Message
	}
	return where + ": " + l.Message
}

// errAt builds an *Error at pointer p of doc.
func (d *doc) errAt(p string, format string, args ...any) *Error {
	return &Error{File: d.file, Line: d.line, Pointer: p, Msg: fmt.Sprintf(format, args...)}
}

// syntaxError turns a decode failure of agc.CheckSyntax into an *Error of
// this package, keeping its pointer and byte offset.
func syntaxError(file string, line int, what string, err error) error {
	var ae *agc.Error
	if !errors.As(err, &ae) {
		return &Error{File: file, Line: line, Msg: fmt.Sprintf("%s: %v", what, err)}
	}
	msg := fmt.Sprintf("%s is not well-formed JSON: %s: %s", what, ae.Class, ae.Msg)
	if ae.Offset >= 0 {
		msg = fmt.Sprintf("%s is not well-formed JSON (byte %d): %s: %s", what, ae.Offset, ae.Class, ae.Msg)
	}
	return &Error{File: file, Line: line, Pointer: ae.Pointer, Msg: msg}
}
