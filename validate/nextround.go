package validate

import (
	"slices"

	"github.com/agcgate/agc-action/agc"
)

// NextRound checks next as the round that follows earlier, the rounds of
// one chain in order (oldest first; the first need not be round 1: a
// chain may have begun where the caller cannot see it). It applies the
// rules --chain applies that depend on the earlier rounds: §9 against what
// they raised and carried (V9.still-open-seen, V9.regressed-seen-carried,
// V9.carried-seen, L9.new-seen-before), attempt.n following the last
// round's and the gate and subject scope kept (V9.chain-order), and the
// escalate-early lint (L10). The rules one response breaks on its own
// (Bytes reports them) are not repeated. Pointers are next's own
// (next.Prefix and its place within its file are kept).
func NextRound(earlier []*agc.Response, next agc.Doc) []Violation {
	r := next.Response
	if r == nil || len(earlier) == 0 {
		return nil
	}
	h := history{known: true, findings: map[string]bool{}, carried: map[string]bool{}}
	for _, e := range earlier {
		for _, f := range e.Findings {
			h.findings[f.ID] = true
		}
		for _, id := range e.Carried {
			h.carried[id] = true
		}
	}
	first, last := earlier[0], earlier[len(earlier)-1]
	vs := slices.DeleteFunc(checkRounds(r, h), func(v Violation) bool { return v.Rule == CarriedNotInFindings })
	vs = append(vs, chainOrder(last.Attempt.N+1, first, r)...)
	vs = append(vs, escalateEarly(last, r)...)
	within(next, vs)
	return vs
}
