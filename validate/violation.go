// Package validate enforces the Agent Gate Contract: the JSON Schema, every
// rule the spec marks [V], and the SHOULD-level advice as lint. It returns
// violations as values; it does no I/O.
package validate

import (
	"fmt"
	"sort"
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

// sortViolations orders violations by file, then pointer, then rule, keeping
// the order of equal ones.
func sortViolations(vs []Violation) {
	sort.SliceStable(vs, func(i, j int) bool {
		a, b := vs[i], vs[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Pointer != b.Pointer {
			return a.Pointer < b.Pointer
		}
		return a.Rule < b.Rule
	})
}
