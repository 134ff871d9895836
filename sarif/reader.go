package sarif

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/agcgate/agc-action/diag"
)

// reader extracts typed values from a run's bytes (see readbytes.go),
// repairing what it can and recording each repair as a diag.Lint. Real
// logs put numbers in strings, objects where strings belong and so on; a
// strict decoder would reject the whole file for one such value, so the
// run is read member by member instead.
type reader struct {
	lints diag.Lints        // the first diag.MaxLints, and how many more
	mem   []jmember         // the members of the objects being read
	elems []jv              // the elements of the arrays being read
	strs  map[string]string // interned values
	names map[string]string // interned member names of property bags
	keys  []string          // member names being sorted

	// canon, while a result is read, has its objects' members, recorded
	// as it checked the result in canon.d.data.
	canon *canonBytes
}

func (rd *reader) lint(p at, format string, args ...any) {
	if rd.lints.Full() {
		rd.lints.Add(diag.Lint{}) // counted; its pointer and message not written
		return
	}
	rd.lints.Add(lintAt(p.String(), fmt.Sprintf(format, args...)))
}

// member is m[key] when it is of kind want; else, unless absent or null,
// it lints that it expected what.
func (rd *reader) member(m jobj, base at, key string, want byte, what string) jv {
	v := m.get(key)
	if v.null() {
		return nil
	}
	if v.kind() != want {
		rd.lint(base.in(key), "expected %s, got %s; ignored", what, v.kindName())
		return nil
	}
	return v
}

func (rd *reader) obj(m jobj, base at, key string) jobj {
	if v := rd.member(m, base, key, '{', "an object"); v != nil {
		return rd.index(v)
	}
	return nil
}

// objects calls each with every element of the array m[key] that is an
// object, and its pointer; other elements are skipped.
func (rd *reader) objects(m jobj, base at, key string, each func(o jobj, p at)) {
	ab := base.in(key)
	for i, v := range rd.arr(m, base, key) {
		if v.kind() == '{' {
			each(rd.index(v), ab.idx(i))
		}
	}
}

// enum reads a string member; known is false when it is set to none of
// values.
func (rd *reader) enum(m jobj, base at, key string, values ...string) (s string, known bool) {
	s = rd.istr(m, base, key)
	return s, s == "" || slices.Contains(values, s)
}

func (rd *reader) arr(m jobj, base at, key string) []jv {
	if v := rd.member(m, base, key, '[', "an array"); v != nil {
		return rd.elements(v)
	}
	return nil
}

func (rd *reader) str(m jobj, base at, key string) string { return rd.strValue(m, base, key, false) }

// istr is str for a value that repeats across a log: a rule id, a level, a
// URI. It is interned.
func (rd *reader) istr(m jobj, base at, key string) string { return rd.strValue(m, base, key, true) }

func (rd *reader) strValue(m jobj, base at, key string, intern bool) string {
	v := m.get(key)
	switch v.kind() {
	case 0, 'n':
		return ""
	case '"':
		return rd.text(v, intern)
	case '0', 't', 'f':
		rd.lint(base.in(key), "expected a string, got %s; used its text", v.kindName())
		return fmt.Sprint(rd.tree(v))
	}
	rd.lint(base.in(key), "expected a string, got %s; ignored", v.kindName())
	return ""
}

func (rd *reader) boolean(m jobj, base at, key string, def bool) bool {
	v := m.get(key)
	switch v.kind() {
	case 0, 'n':
		return def
	case 't':
		return true
	case 'f':
		return false
	}
	rd.lint(base.in(key), "expected a boolean, got %s; ignored", v.kindName())
	return def
}

// integer reads a non-negative integer; ok is false when absent or broken.
func (rd *reader) integer(m jobj, base at, key string) (int, bool) {
	v := m.get(key)
	switch v.kind() {
	case 0, 'n':
		return 0, false
	case '0':
		if len(v) <= 9 && !slices.ContainsFunc(v, func(c byte) bool { return c < '0' || c > '9' }) {
			n, _ := strconv.Atoi(string(v))
			return n, true
		}
		n := rd.tree(v).(float64)
		if n >= 0 && n == math.Trunc(n) && n <= math.MaxInt32 {
			return int(n), true
		}
		rd.lint(base.in(key), "expected a non-negative integer, got %v; ignored", n)
	case '"':
		n := rd.text(v, false)
		if i, err := strconv.Atoi(strings.TrimSpace(n)); err == nil && i >= 0 {
			rd.lint(base.in(key), "integer written as a string; read as %d", i)
			return i, true
		}
		rd.lint(base.in(key), "expected an integer, got the string %q; ignored", n)
	default:
		rd.lint(base.in(key), "expected an integer, got %s; ignored", v.kindName())
	}
	return 0, false
}

// props returns a property bag (§3.8) or nil.
func (rd *reader) props(m jobj, base at) map[string]any {
	if v := rd.member(m, base, "properties", '{', "an object"); v != nil {
		return rd.tree(v).(map[string]any)
	}
	return nil
}
