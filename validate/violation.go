// Package validate enforces the Agent Gate Contract: the JSON Schema, every
// rule the spec marks [V], and the SHOULD-level advice as lint. It returns
// violations as values; it does no I/O.
package validate

import (
	"cmp"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Severity says whether a violation fails validation.
type Severity int

const (
	// Error breaks a MUST of the contract: validation fails.
	Error Severity = iota
	// Lint is SHOULD-level advice: reported, validation still passes.
	Lint
)

func (s Severity) String() string {
	if s == Lint {
		return "lint"
	}
	return "error"
}

// Violation is one broken rule at one place.
type Violation struct {
	File     string   // the input's name
	Pointer  string   // JSON pointer (RFC 6901) into the file; "" is the whole document
	Offset   int64    // byte offset when known (decode errors), else -1
	Rule     string   // stable rule class, docs/rules.md
	Section  string   // spec section, e.g. "§6"
	Severity Severity // Error or Lint
	Message  string   // one sentence for a person
}

// Where names the place as FILE#/pointer.
func (v Violation) Where() string {
	if v.Pointer == "" {
		return v.File
	}
	return v.File + "#" + v.Pointer
}

func (v Violation) String() string {
	where := v.Where()
	if v.Offset >= 0 {
		where += fmt.Sprintf(" (byte %d)", v.Offset)
	}
	return fmt.Sprintf("%s: %s: %s (%s): %s", where, v.Severity, v.Rule, v.Section, v.Message)
}

// HasErrors reports whether any violation has severity Error.
func HasErrors(vs []Violation) bool {
	for _, v := range vs {
		if v.Severity == Error {
			return true
		}
	}
	return false
}

// Count returns the number of errors and of lint.
func Count(vs []Violation) (errors, lint int) {
	for _, v := range vs {
		if v.Severity == Error {
			errors++
		} else {
			lint++
		}
	}
	return errors, lint
}

// sortViolations orders the violations of each file by place (array
// indexes compared as numbers), then rule, keeping files in input order.
func sortViolations(vs []Violation) {
	rank := map[string]int{}
	for _, v := range vs {
		if _, ok := rank[v.File]; !ok {
			rank[v.File] = len(rank)
		}
	}
	sort.SliceStable(vs, func(i, j int) bool {
		a, b := vs[i], vs[j]
		if a.File != b.File {
			return rank[a.File] < rank[b.File]
		}
		if c := comparePointers(a.Pointer, b.Pointer); c != 0 {
			return c < 0
		}
		return a.Rule < b.Rule
	})
}

// comparePointers orders JSON pointers token by token, numbers by value.
func comparePointers(a, b string) int {
	ta, tb := strings.Split(a, "/"), strings.Split(b, "/")
	for k := 0; k < len(ta) && k < len(tb); k++ {
		if ta[k] == tb[k] {
			continue
		}
		na, errA := strconv.Atoi(ta[k])
		nb, errB := strconv.Atoi(tb[k])
		if errA == nil && errB == nil {
			return cmp.Compare(na, nb)
		}
		return strings.Compare(ta[k], tb[k])
	}
	return cmp.Compare(len(ta), len(tb))
}
