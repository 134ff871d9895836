package sarif

import (
	"strconv"
	"strings"

	"github.com/agcgate/agc-action/diag"
)

// Error is a log that cannot be read at all. Its place names the file, the
// JSON pointer (RFC 6901) and, where the log's bytes were read, the line
// and column.
type Error struct {
	diag.Place
	Msg string
}

func (e *Error) Error() string { return e.Place.Text(e.Msg) }

// A repair made while reading an imperfect log is a diag.Lint: the log was
// still converted, and the lint says how, naming a JSON pointer into it.
func lintAt(p, msg string) diag.Lint {
	return diag.Lint{Place: diag.Place{Pointer: p}, Message: msg}
}

// ptr appends an escaped member name or index to a JSON pointer.
func ptr(base string, key string) string {
	if strings.ContainsAny(key, "~/") {
		key = strings.NewReplacer("~", "~0", "/", "~1").Replace(key)
	}
	return base + "/" + key
}

func ptrIdx(base string, i int) string { return base + "/" + strconv.Itoa(i) }

// at is a JSON pointer not yet written out: base, then up to eight more
// reference tokens (as deep as a result's fixes go). Reading a result goes a few members deep and seldom
// lints, so its pointers are written out only for a lint.
type at struct {
	base string
	toks [8]string
	n    int
}

// in is the pointer to member key of the value at a.
func (a at) in(key string) at {
	if a.n == len(a.toks) {
		a = at{base: a.String()}
	}
	a.toks[a.n] = key
	a.n++
	return a
}

// idx is the pointer to element i of the array at a.
func (a at) idx(i int) at { return a.in(strconv.Itoa(i)) }

func (a at) String() string {
	s := a.base
	for _, t := range a.toks[:a.n] {
		s = ptr(s, t)
	}
	return s
}
