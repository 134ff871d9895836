package sarif

import (
	"fmt"
	"strconv"
	"strings"
)

// Error is a log that cannot be read at all. It names the file and the
// place as a JSON pointer (RFC 6901).
type Error struct {
	File    string
	Pointer string
	Msg     string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: at %s: %s", e.File, where(e.Pointer), e.Msg)
}

// Lint is a repair made while reading an imperfect log: the log was still
// converted, and this says how.
type Lint struct {
	Pointer string
	Msg     string
}

func (l Lint) String() string { return where(l.Pointer) + ": " + l.Msg }

func where(p string) string {
	if p == "" {
		return `"" (the document)`
	}
	return p
}

// ptr appends an escaped member name or index to a JSON pointer.
func ptr(base string, key string) string {
	if strings.ContainsAny(key, "~/") {
		key = strings.NewReplacer("~", "~0", "/", "~1").Replace(key)
	}
	return base + "/" + key
}

func ptrIdx(base string, i int) string { return base + "/" + strconv.Itoa(i) }
