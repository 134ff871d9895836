package sarif

import (
	"strconv"
	"strings"

	"github.com/agcgate/agc-action/diag"
)

// A log that cannot be read at all is a *diag.Error. Its place names the
// file, the JSON pointer (RFC 6901) and, where the log's bytes were read,
// the line and column.

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
