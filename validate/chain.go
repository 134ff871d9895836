package validate

import (
	"fmt"
	"slices"

	"github.com/agcgate/agc-action/agc"
)

// checkChain validates docs as the rounds of one chain, in order (§9, §10);
// schemaAlways is checkDoc's.
func checkChain(docs []agc.Doc, schemaAlways bool) []Violation {
	var vs []Violation
	h := history{known: true, findings: map[string]bool{}, carried: map[string]bool{}}
	var first, prev *agc.Response
	for k, d := range docs {
		vs = append(vs, checkDoc(d, h, schemaAlways)...)
		r := d.Response
		if r == nil {
			prev = nil
			continue
		}
		if first == nil {
			first = r
		}
		var cv []Violation
		cv = append(cv, chainOrder(k+1, first, r)...)
		cv = append(cv, escalateEarly(prev, r)...)
		within(d, cv)
		vs = append(vs, cv...)
		for _, f := range r.Findings {
			h.findings[f.ID] = true
		}
		for _, id := range r.Carried {
			h.carried[id] = true
		}
		prev = r
	}
	return vs
}

// chainOrder checks that round k counts attempt.n = k and keeps the gate
// and subject scope of the chain's first round.
func chainOrder(k int, first, r *agc.Response) []Violation {
	var vs []Violation
	if r.Attempt.N != k {
		vs = append(vs, violation(ChainOrder, "/attempt/n",
			fmt.Sprintf("round %d of the chain has attempt.n %d", k, r.Attempt.N)))
	}
	same := func(at, what, a, b string) {
		if a != b {
			vs = append(vs, violation(ChainOrder, at,
				fmt.Sprintf("%s changed within the chain: %q in round 1, %q in round %d", what, a, b, k)))
		}
	}
	same("/gate/id", "gate.id", first.Gate.ID, r.Gate.ID)
	same("/gate/kind", "gate.kind", first.Gate.Kind, r.Gate.Kind)
	same("/gate/version", "gate.version", first.Gate.Version, r.Gate.Version)
	same("/subject/kind", "subject.kind", first.Subject.Kind, r.Subject.Kind)
	if !sameScope(first.Subject.Scope, r.Subject.Scope) {
		vs = append(vs, violation(ChainOrder, "/subject/scope",
			fmt.Sprintf("subject.scope changed within the chain: %q in round 1, %q in round %d", first.Subject.Scope, r.Subject.Scope, k)))
	}
	return vs
}

func sameScope(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// escalateEarly lints a round that keeps blocking while a class is
// still-open in it and in the round before (§10).
func escalateEarly(prev, r *agc.Response) []Violation {
	if prev == nil || r.Verdict == agc.Escalate {
		return nil
	}
	open := map[string]bool{}
	for _, f := range prev.Findings {
		if f.Status == agc.StatusStillOpen {
			open[f.Class] = true
		}
	}
	var classes []string
	for _, f := range r.Findings {
		if f.Status == agc.StatusStillOpen && open[f.Class] && !slices.Contains(classes, f.Class) {
			classes = append(classes, f.Class)
		}
	}
	if len(classes) == 0 {
		return nil
	}
	return []Violation{violation(LintEscalateEarly, "/verdict",
		fmt.Sprintf("class(es) %q are still-open in two consecutive rounds; escalate instead of another round", classes))}
}
