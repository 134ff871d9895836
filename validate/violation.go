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

	"github.com/agcgate/agc-action/diag"
)

// Severity says whether a violation fails validation.
type Severity int

const (
	// SeverityError breaks a MUST of the contract: validation fails.
	SeverityError Severity = iota
	// SeverityLint is SHOULD-level advice: reported, validation still passes.
	SeverityLint
)

func (s Severity) String() string {
	if s == SeverityLint {
		return "lint"
	}
	return "error"
}

// Violation is one broken rule at one place. The place names the input
// file, the JSON pointer into it, and the line, column and byte offset of
// the value the pointer names (or of the nearest enclosing value that
// exists) when the input's bytes were at hand.
type Violation struct {
	diag.Place
	Record   int      // 1-based line of the response in a JSON Lines file, else 0
	Rule     string   // stable rule class, docs/rules.md
	Section  string   // spec section, e.g. "§6"
	Severity Severity // SeverityError or SeverityLint
	Message  string   // one sentence for a person
}

// Location names the place as a finding of the validator's own AGC answer
// does (docs/rules.md): FILE#/pointer, FILE:RECORD#/pointer in JSON Lines.
func (v Violation) Location() string {
	if v.Pointer == "" {
		return v.doc()
	}
	return v.doc() + "#" + v.Pointer
}

// doc names the response the violation is in: FILE, or FILE:RECORD.
func (v Violation) doc() string {
	if v.Record > 0 {
		return v.File + ":" + strconv.Itoa(v.Record)
	}
	return v.File
}

// String is the violation in diag's one form:
// FILE:LINE:COLUMN: POINTER: SEVERITY: RULE (SECTION): MESSAGE.
func (v Violation) String() string {
	return v.Place.Text(fmt.Sprintf("%s: %s (%s): %s", v.Severity, v.Rule, v.Section, v.Message))
}

// HasErrors reports whether any violation has severity SeverityError.
func HasErrors(vs []Violation) bool {
	for _, v := range vs {
		if v.Severity == SeverityError {
			return true
		}
	}
	return false
}

// Count returns the number of errors and of lint.
func Count(vs []Violation) (errors, lint int) {
	for _, v := range vs {
		if v.Severity == SeverityError {
			errors++
		} else {
			lint++
		}
	}
	return errors, lint
}

// sortViolations orders the violations of each file by JSON Lines record,
// then pointer (array indexes compared as numbers), then rule, keeping
// files in input order.
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
		if a.Record != b.Record {
			return a.Record < b.Record
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
