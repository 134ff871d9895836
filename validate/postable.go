package validate

import (
	"fmt"

	"github.com/agcgate/agc-action/agc"
)

// Postable reports what agc-action refuses to post of a response that the
// contract may allow: a gate id outside the set a check-run name, a commit
// status, a code scanning category and the log can carry
// (agc.CheckGateID), or the validator's own id, GateID, which no input
// answers for. Each is an action.gate-id violation at /gate/id of r; none
// when r may be posted as its gate.
//
// It is the one set of these rules: validate reports them (unless
// Options.ContractOnly), and the Action and agc-sarif github refuse an
// answer for them, with the same message.
func Postable(r *agc.Response) []Violation {
	if r == nil {
		return nil
	}
	id := r.Gate.ID
	var msg string
	switch {
	case id == GateID:
		msg = fmt.Sprintf("gate id %s is the validator's own: no input answers for it, so this answer is not posted", id)
	case agc.CheckGateID(id) != nil:
		msg = agc.CheckGateID(id).Error() + "; agc-action refuses to post it"
	default:
		return nil
	}
	return []Violation{violation(ClassGateID, "/gate/id", msg)}
}

// postableIn is Postable of document d, placed within it.
func postableIn(d agc.Doc) []Violation {
	vs := Postable(d.Response)
	within(d, vs)
	return vs
}
