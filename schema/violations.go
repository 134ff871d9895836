package schema

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// violations flattens a validation error into its leaves.
func violations(err error) []Violation {
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return []Violation{{Keyword: "", Message: err.Error()}}
	}
	var out []Violation
	collect(ve, &out)
	slices.SortFunc(out, compareViolations)
	return slices.Compact(out)
}

func collect(e *jsonschema.ValidationError, out *[]Violation) {
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			collect(c, out)
		}
		return
	}
	ptr := pointer(e.InstanceLocation)
	*out = append(*out, Violation{Place: diag.Place{Pointer: ptr}, Keyword: keyword(e.ErrorKind), Message: describe(ptr, e.ErrorKind)})
}

func keyword(k jsonschema.ErrorKind) string {
	path := k.KeywordPath()
	if len(path) == 0 {
		return ""
	}
	return path[len(path)-1]
}

// pointer joins tokens into an RFC 6901 JSON pointer.
func pointer(tokens []string) string {
	var sb strings.Builder
	for _, t := range tokens {
		sb.WriteByte('/')
		sb.WriteString(agc.PointerToken(t))
	}
	return sb.String()
}

func compareViolations(a, b Violation) int {
	return cmp.Or(comparePointers(a.Pointer, b.Pointer), cmp.Compare(a.Keyword, b.Keyword), cmp.Compare(a.Message, b.Message))
}

// comparePointers orders pointers token by token, array indexes by number,
// so that /findings/2 comes before /findings/10.
func comparePointers(a, b string) int {
	ta, tb := strings.Split(a, "/"), strings.Split(b, "/")
	for i := 0; i < len(ta) && i < len(tb); i++ {
		if c := compareTokens(ta[i], tb[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(ta), len(tb))
}

func compareTokens(a, b string) int {
	na, errA := strconv.ParseUint(a, 10, 64)
	nb, errB := strconv.ParseUint(b, 10, 64)
	switch {
	case errA == nil && errB == nil:
		return cmp.Compare(na, nb)
	case errA == nil:
		return -1
	case errB == nil:
		return 1
	}
	return cmp.Compare(a, b)
}
