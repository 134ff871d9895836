package rounds

import (
	"fmt"
	"slices"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/validate"
)

// DefaultBudget is the budget of a chain the Action numbers when neither
// the workflow nor the answer sets one.
const DefaultBudget = 3

// Policy is what the workflow says about rounds.
type Policy struct {
	// Budget is the budget a chain the Action numbers opens with; 0: the
	// answer's own, else DefaultBudget.
	Budget int
	// EscalateTo is who decides at the budget: a GitHub login or org/team
	// (CheckEscalateTo), without "@"; "" names no one.
	EscalateTo string
	// EscalateEarly escalates before the budget when a class is
	// still-open in two consecutive rounds (§10 SHOULD).
	EscalateEarly bool
}

// Next is the next round of a chain, made from a gate's answer.
type Next struct {
	// Response is the round as it is posted: the answer itself when
	// nothing changed, else a changed copy. Raw is its encoding when it
	// changed, nil when the answer's own bytes stand.
	Response *agc.Response
	Raw      []byte
	// Numbered: the Action numbered the round (the answer says round 1);
	// otherwise the gate counts its rounds and Violations are the rules
	// it broke against the chain, pointers into the answer.
	Numbered   bool
	Violations []validate.Violation
	// Escalation is set when the round escalates because of its budget
	// (or early); its Note goes first in the review body and summaries.
	Escalation *Escalation
}

// Follow makes the round that follows chain c from the answer d of its
// gate (docs/rounds.md): an answer that says attempt.n 1 is numbered (n,
// budget, each finding's status, carried); one that says more counts its
// rounds itself and is checked against c (validate.NextRound); either
// escalates when it blocks at its budget.
func Follow(c *Chain, d agc.Doc, p Policy) (*Next, error) {
	r := d.Response
	if r == nil {
		return nil, fmt.Errorf("rounds: no response")
	}
	nx := &Next{Response: r}
	var base []*agc.Response // the rounds this one follows
	if r.Attempt.N <= 1 {
		nx.Numbered = true
		base = c.Responses()
		nx.Response, base = number(r, base, p)
	} else {
		base = c.Responses()
		nx.Violations = validate.NextRound(base, agc.Doc{Response: r, Raw: d.Raw})
	}
	if e := escalation(nx.Response, base, p); e != nil {
		nx.Escalation = e
		nx.Response = escalate(nx.Response, base, e, p)
	}
	if nx.Response != r {
		raw, err := agc.Encode(nx.Response)
		if err != nil {
			return nil, err
		}
		nx.Raw = raw
	}
	return nx, nil
}

// number returns a copy of r numbered as the round after base, and the
// rounds it follows: base, or base without its last round when that one
// escalated (a push while an escalation stands is judged again as the same
// round, against the rounds before it).
func number(r *agc.Response, base []*agc.Response, p Policy) (*agc.Response, []*agc.Response) {
	out := *r
	out.Attempt.N, out.Attempt.Budget = 1, budgetOf(r, p)
	if len(base) > 0 {
		last := base[len(base)-1]
		out.Attempt.Budget = base[0].Attempt.Budget // fixed when the chain opened
		out.Attempt.N = last.Attempt.N + 1
		if last.Verdict == agc.Escalate {
			out.Attempt.N = last.Attempt.N
			base = base[:len(base)-1]
		}
	}
	if out.Attempt.N > out.Attempt.Budget {
		// A chain already past its budget (its last round blocked at the
		// budget, posted by a gate that counted, or before agc-action
		// escalated): the budget is spent, and this round escalates.
		out.Attempt.Budget = out.Attempt.N
	}
	out.Findings = slices.Clone(r.Findings)
	out.Carried = setStatuses(out.Findings, base)
	return &out, base
}

func budgetOf(r *agc.Response, p Policy) int {
	switch {
	case p.Budget > 0:
		return p.Budget
	case r.Attempt.Budget > 0:
		return r.Attempt.Budget
	}
	return DefaultBudget
}

// setStatuses sets each finding's status against the rounds before it
// (§9) and returns the ids of the last round's findings that are gone.
func setStatuses(fs []agc.Finding, base []*agc.Response) []string {
	seen, carried, prev := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, b := range base {
		for _, f := range b.Findings {
			seen[f.ID] = true
		}
		for _, id := range b.Carried {
			carried[id] = true
		}
	}
	if len(base) > 0 {
		for _, f := range base[len(base)-1].Findings {
			prev[f.ID] = true
		}
	}
	now := map[string]bool{}
	for i := range fs {
		f := &fs[i]
		now[f.ID] = true
		switch {
		case prev[f.ID]:
			f.Status = agc.StatusStillOpen
		case carried[f.ID]:
			f.Status = agc.StatusRegressed
		case seen[f.ID]:
			f.Status = agc.StatusStillOpen
		default:
			f.Status = agc.StatusNew
		}
	}
	var gone []string
	if len(base) > 0 {
		for _, f := range base[len(base)-1].Findings {
			if !now[f.ID] && !slices.Contains(gone, f.ID) {
				gone = append(gone, f.ID)
			}
		}
	}
	return gone
}
