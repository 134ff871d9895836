package sarif

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/agcgate/agc-action/diag"
)

// reader extracts typed values from a decoded JSON tree (map[string]any,
// []any, float64, string, bool, nil), repairing what it can and recording
// each repair as a diag.Lint. Real logs put numbers in strings, objects where
// strings belong and so on; a strict decoder would reject the whole file for
// one such value, so the tree is read member by member instead.
type reader struct {
	lints []diag.Lint
}

func (rd *reader) lint(p, format string, args ...any) {
	rd.lints = append(rd.lints, lintAt(p, fmt.Sprintf(format, args...)))
}

func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func (rd *reader) obj(m map[string]any, base, key string) map[string]any {
	v, ok := m[key]
	if !ok || v == nil {
		return nil
	}
	o, ok := v.(map[string]any)
	if !ok {
		rd.lint(ptr(base, key), "expected an object, got %s; ignored", kindOf(v))
	}
	return o
}

// objects calls each with every element of the array m[key] that is an
// object, and its pointer; other elements are skipped.
func (rd *reader) objects(m map[string]any, base, key string, each func(o map[string]any, p string)) {
	ab := ptr(base, key)
	for i, v := range rd.arr(m, base, key) {
		if o, ok := v.(map[string]any); ok {
			each(o, ptrIdx(ab, i))
		}
	}
}

// enum reads a string member; known is false when it is set to none of
// values.
func (rd *reader) enum(m map[string]any, base, key string, values ...string) (s string, known bool) {
	s = rd.str(m, base, key)
	return s, s == "" || slices.Contains(values, s)
}

func (rd *reader) arr(m map[string]any, base, key string) []any {
	v, ok := m[key]
	if !ok || v == nil {
		return nil
	}
	a, ok := v.([]any)
	if !ok {
		rd.lint(ptr(base, key), "expected an array, got %s; ignored", kindOf(v))
	}
	return a
}

func (rd *reader) str(m map[string]any, base, key string) string {
	v, ok := m[key]
	if !ok || v == nil {
		return ""
	}
	switch s := v.(type) {
	case string:
		return s
	case float64, bool:
		rd.lint(ptr(base, key), "expected a string, got %s; used its text", kindOf(v))
		return fmt.Sprint(s)
	}
	rd.lint(ptr(base, key), "expected a string, got %s; ignored", kindOf(v))
	return ""
}

func (rd *reader) boolean(m map[string]any, base, key string, def bool) bool {
	v, ok := m[key]
	if !ok || v == nil {
		return def
	}
	b, ok := v.(bool)
	if !ok {
		rd.lint(ptr(base, key), "expected a boolean, got %s; ignored", kindOf(v))
		return def
	}
	return b
}

// integer reads a non-negative integer; ok is false when absent or broken.
func (rd *reader) integer(m map[string]any, base, key string) (int, bool) {
	v, ok := m[key]
	if !ok || v == nil {
		return 0, false
	}
	switch n := v.(type) {
	case float64:
		if n >= 0 && n == math.Trunc(n) && n <= math.MaxInt32 {
			return int(n), true
		}
		rd.lint(ptr(base, key), "expected a non-negative integer, got %v; ignored", n)
	case string:
		if i, err := strconv.Atoi(strings.TrimSpace(n)); err == nil && i >= 0 {
			rd.lint(ptr(base, key), "integer written as a string; read as %d", i)
			return i, true
		}
		rd.lint(ptr(base, key), "expected an integer, got the string %q; ignored", n)
	default:
		rd.lint(ptr(base, key), "expected an integer, got %s; ignored", kindOf(v))
	}
	return 0, false
}

// props returns a property bag (§3.8) or nil.
func (rd *reader) props(m map[string]any, base string) map[string]any {
	return rd.obj(m, base, "properties")
}

func asObj(v any) map[string]any {
	o, _ := v.(map[string]any)
	return o
}
