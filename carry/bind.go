package carry

import (
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/fingerprint"
)

// GateSubjectKey names the subject member that keeps a gate's own subject
// when agc-action binds its answer to a scoped fingerprint
// (docs/action.md, 3).
const GateSubjectKey = "agc-action/gate-subject"

// Bind binds r to the scoped fingerprint res, so that a later push can
// carry its verdict: r's subject gets res's fingerprint and normalised
// scope, and the gate's own fingerprint and scope are kept, with the
// commit bound at, in the GateSubjectKey member, which also marks r as
// bound. On error r is unchanged.
func Bind(r *agc.Response, res *fingerprint.Result) error {
	own, err := json.Marshal(struct {
		Fingerprint string   `json:"fingerprint"`
		Scope       []string `json:"scope,omitzero"`
		BoundAt     string   `json:"bound_at"`
	}{r.Subject.Fingerprint, r.Subject.Scope, res.Commit})
	if err != nil {
		return err
	}
	unknown, err := agc.SetMember(r.Subject.Unknown, GateSubjectKey, jsontext.Value(own))
	if err != nil {
		return err
	}
	r.Subject.Unknown, r.Subject.Fingerprint, r.Subject.Scope = unknown, res.Fingerprint, res.Scope.Patterns()
	return nil
}

// Bound reports whether agc-action bound r to a scoped fingerprint: only
// bound answers are ever carried, since nothing else says what they judged.
func Bound(r *agc.Response) bool {
	_, ok, err := agc.Member(r.Subject.Unknown, GateSubjectKey)
	return ok && err == nil
}
