package bridge

import (
	"fmt"
	"regexp"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
)

// Admission actions (gate-action-admission, "Action admission").
const (
	ActionAbstain = "abstain"
	ActionAllow   = "allow"
	ActionDeny    = "deny"
	ActionRepair  = "repair"
	ActionObserve = "observe"
)

// ClassNotEnacted is the class of the advisory finding that reports a
// requested action the adapter did not enact.
const ClassNotEnacted = "action-not-enacted"

// InputKindDigestReference marks a rewrite remedy whose input names the
// replacement by its digest instead of carrying it (see FromReceipt).
const (
	NoteInputKind            = "agc-action/input-kind"
	InputKindDigestReference = "digest-reference"
)

// receiptBudget: a receipt counts no rounds; round 1 of 2 lets a denial be
// a valid block (§10 forbids block at n == budget).
const receiptBudget = 2

var hexDigest = regexp.MustCompile(`^(?:sha256:)?([0-9a-f]{64})$`)

// receipt is a Receipt.as_dict() as the mapping reads it.
type receipt struct {
	o                           *object
	eventID, attemptDigest      string
	requested, enacted, reason  string
	originalDigest, finalDigest string
	adapterID, adapterVersion   string
	overrideID                  string // set when an override waived a denial
	overrideAuthority           string
}

// FromReceipt maps an action-admission Receipt (its as_dict() JSON) to the
// deterministic answer of the admission kernel behind the adapter: a
// tool-call subject whose fingerprint is the attempt digest, and a verdict
// decided by the enacted action. Receipts carry no candidate content, so a
// repair's rewrite remedy names the replacement only by its digest (an
// input of kind "digest-reference"); such an input can never be forwarded
// to a runtime as the tool's input. docs/bridges.md has the mapping.
func FromReceipt(file string, data []byte) (*agc.Response, []diag.Lint, error) {
	d := &doc{file: file}
	o, err := d.parse(data, "the receipt")
	if err != nil {
		return nil, nil, err
	}
	rc, err := readReceipt(o)
	if err != nil {
		return nil, nil, err
	}
	var lints []diag.Lint
	fp := rc.attemptDigest
	if m := hexDigest.FindStringSubmatch(fp); m != nil {
		fp = "sha256:" + m[1]
	} else {
		lints = append(lints, d.lintAt("/attempt_digest", "attempt_digest is not a SHA-256 hex digest; it is kept as the fingerprint unchanged"))
	}
	return receiptResponse(rc, fp), lints, nil
}

func readReceipt(o *object) (*receipt, error) {
	rc := &receipt{o: o}
	fields := []struct {
		name string
		dst  *string
	}{
		{"event_id", &rc.eventID}, {"attempt_digest", &rc.attemptDigest},
		{"requested_action", &rc.requested}, {"enacted_action", &rc.enacted},
		{"reason_code", &rc.reason}, {"original_digest", &rc.originalDigest},
		{"final_digest", &rc.finalDigest}, {"adapter_id", &rc.adapterID},
		{"adapter_version", &rc.adapterVersion},
	}
	for _, f := range fields {
		s, err := o.str(f.name, true)
		if err != nil {
			return nil, err
		}
		*f.dst = s
	}
	for _, name := range []string{"requested_action", "enacted_action"} {
		v, _ := o.str(name, true)
		if !isAction(v) {
			return nil, o.d.errAt(o.at(name), "unknown %s %q: an admission action is abstain, allow, deny, repair or observe", name, v)
		}
	}
	for _, name := range []string{"event_id", "attempt_digest", "adapter_id", "reason_code"} {
		if v, _ := o.str(name, true); v == "" {
			return nil, o.d.errAt(o.at(name), "%s is empty", name)
		}
	}
	if _, err := o.str("evidence_grade", true); err != nil {
		return nil, err
	}
	if _, err := o.strs("proposal_digests"); err != nil {
		return nil, err
	}
	for _, name := range []string{"override_id", "override_authority_id", "override_actor_digest", "override_reason_digest"} {
		v, err := o.str(name, false)
		if err != nil {
			return nil, err
		}
		if name == "override_id" {
			rc.overrideID = v
		} else if name == "override_authority_id" {
			rc.overrideAuthority = v
		}
	}
	return rc, nil
}

func isAction(s string) bool {
	switch s {
	case ActionAbstain, ActionAllow, ActionDeny, ActionRepair, ActionObserve:
		return true
	}
	return false
}

func receiptResponse(rc *receipt, fingerprint string) *agc.Response {
	gate := agc.Gate{ID: "gate-admission/" + rc.adapterID, Kind: agc.Deterministic, Version: rc.adapterVersion}
	r := newResponse(gate, agc.Subject{Kind: agc.SubjectToolCall, Fingerprint: fingerprint}, receiptBudget)
	r.Coverage.NotChecked = []string{"the candidate's content: a receipt carries only its digests"}
	loc := "event " + rc.eventID
	switch rc.enacted {
	case ActionDeny:
		add(r, receiptFinding(rc, loc, agc.Blocking,
			fmt.Sprintf("The admission kernel denied the tool call (reason %s), and the adapter enacted the denial.", rc.reason),
			delegate("the agent that made the call", "gate-admission policy reason code "+rc.reason)))
	case ActionRepair:
		add(r, receiptFinding(rc, loc, agc.Blocking,
			fmt.Sprintf("The admission kernel replaced the candidate field (reason %s), and the adapter ran the replacement instead of the original.", rc.reason),
			repairRemedy(rc)))
	case ActionObserve:
		add(r, receiptFinding(rc, loc, agc.Advisory,
			fmt.Sprintf("A policy observed the tool call (reason %s); observation records evidence and prevents nothing.", rc.reason),
			delegate("the operator of adapter "+rc.adapterID, "gate-admission: observe records bounded evidence without claiming prevention")))
	}
	if rc.requested != rc.enacted {
		add(r, notEnacted(rc, loc))
	}
	setVerdict(r)
	r.Unknown = receiptKept(rc).value()
	return r
}

func receiptFinding(rc *receipt, loc, severity, what string, remedy agc.Remedy) agc.Finding {
	return agc.Finding{
		Class: rc.reason, Location: loc, What: what,
		Why:      fmt.Sprintf("gate-admission: an enrolled policy's static reason code %s decided the %s.", rc.reason, rc.enacted),
		Severity: severity, Remedy: remedy, Check: preview(),
	}
}

// repairRemedy is the applied rewrite of an enacted repair. Its input
// records only the digests: the replacement itself is not in the receipt.
func repairRemedy(rc *receipt) agc.Remedy {
	in := encodeObject([]member{
		{"gate-admission/original_digest", quote(rc.originalDigest)},
		{"gate-admission/final_digest", quote(rc.finalDigest)},
	})
	var x extensions
	x.addString(NoteInputKind, InputKindDigestReference)
	return agc.Remedy{Kind: agc.RemedyRewrite, Input: in, Applied: yes(), Unknown: x.value()}
}

// notEnacted reports a requested action the adapter did not enact.
func notEnacted(rc *receipt, loc string) agc.Finding {
	why := "gate-admission: Gate never reports an unavailable effect as enforcement; a missing capability degrades the requested action."
	if rc.enacted == ActionAbstain && rc.requested == ActionDeny {
		why = "gate-admission: a denial needs proof of pre_admission, input_complete, target_identity and deny; without it the denial degrades to abstention."
	}
	if rc.requested == ActionRepair && rc.enacted == ActionDeny {
		why = "gate-admission: an adapter that can deny but cannot repair turns a requested repair into a denial, so the agent can correct the input and retry."
	}
	if rc.overrideID != "" && rc.enacted == ActionAllow {
		// Not a missing capability: a person's override is recorded. (An
		// override applies only to an enacted denial and never turns a
		// degraded one into allow, so the other explanations stand when
		// the action is anything else.)
		why = fmt.Sprintf("gate-admission: override %s, authorised by %s, is recorded against the %s; the receipt keeps only digests of the actor and the reason.",
			rc.overrideID, orUnknown(rc.overrideAuthority), rc.requested)
	}
	return agc.Finding{
		Class: ClassNotEnacted, Location: loc,
		What:     fmt.Sprintf("The policies requested %s, but the adapter enacted %s.", rc.requested, rc.enacted),
		Why:      why,
		Severity: agc.Advisory,
		Remedy:   delegate("the operator of adapter "+rc.adapterID, "gate-admission, Capability contract"),
		Check:    preview(),
	}
}

// receiptKept keeps every member of the receipt except those whose whole
// meaning is in an AGC field, under "gate-admission/…" names.
func receiptKept(rc *receipt) extensions {
	var x extensions
	taken := []string{"attempt_digest", "adapter_id", "adapter_version"}
	for _, m := range rc.o.members {
		if !contains(taken, m.name) {
			x.add("gate-admission/"+m.name, m.value)
		}
	}
	return x
}

func orUnknown(s string) string {
	if s == "" {
		return "an authority the receipt does not name"
	}
	return s
}
