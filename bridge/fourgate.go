package bridge

import (
	"fmt"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
)

// Fourgate outcome verdicts and verifier statuses (fourgate-contract).
const (
	FourgatePass    = "PASS"
	FourgateFail    = "FAIL"
	FourgateUnknown = "UNKNOWN"

	VerifierPass = "pass"
	VerifierFail = "fail"
)

// fourgateGate is the id Fourgate answers under. Fourgate results name no
// version of the contract they were checked against.
const fourgateGate = "fourgate"

// fourgateBudget: Fourgate counts no rounds; round 1 of 2 lets a FAIL be a
// valid block (§10 forbids block at n == budget).
const fourgateBudget = 2

// fgResult is a verifier result or an outcome verdict, as read.
type fgResult struct {
	o        *object
	outcome  bool   // an outcome verdict (else a verifier result)
	state    string // PASS, FAIL or UNKNOWN (a verifier's pass/fail upper-cased)
	reason   string
	recovery string
	tool     string
}

// FromFourgate maps a Fourgate verifier result ({"status":"pass"},
// {"status":"fail","reason_code":…}) or outcome verdict ({"verdict":"PASS"
// | "FAIL" | "UNKNOWN", "reason_code", "recovery", "tool", …}) to AGC: PASS
// allows, FAIL blocks with the reason code as the class and the contract's
// recovery as the remedy, and UNKNOWN escalates: a person decides, since
// the outcome was neither confirmed nor refuted. docs/bridges.md has the
// mapping.
func FromFourgate(file string, data []byte) (*agc.Response, []diag.Lint, error) {
	d := &doc{file: file}
	o, err := d.parse(data, "the Fourgate result")
	if err != nil {
		return nil, nil, err
	}
	res, err := readFourgate(o)
	if err != nil {
		return nil, nil, err
	}
	return fourgateResponse(res, data), nil, nil
}

func readFourgate(o *object) (*fgResult, error) {
	_, isVerdict := o.get("verdict")
	_, isStatus := o.get("status")
	switch {
	case isVerdict && isStatus:
		return nil, o.d.errAt("", "both \"verdict\" (an outcome verdict) and \"status\" (a verifier result): a Fourgate result is one or the other")
	case isVerdict:
		return readOutcome(o)
	case isStatus:
		return readVerifier(o)
	}
	return nil, o.d.errAt("", "neither \"status\" (a verifier result) nor \"verdict\" (an outcome verdict): not a Fourgate result")
}

func readVerifier(o *object) (*fgResult, error) {
	r := &fgResult{o: o}
	st, err := o.str("status", true)
	if err != nil {
		return nil, err
	}
	switch st {
	case VerifierPass:
		r.state = FourgatePass
	case VerifierFail:
		r.state = FourgateFail
		if r.reason, err = o.str("reason_code", true); err != nil {
			return nil, err
		}
	default:
		return nil, o.d.errAt("/status", "unknown verifier status %q: the verifier protocol has \"pass\" and \"fail\"", st)
	}
	return r, checkReason(r)
}

func readOutcome(o *object) (*fgResult, error) {
	r := &fgResult{o: o, outcome: true}
	var err error
	if r.state, err = o.str("verdict", true); err != nil {
		return nil, err
	}
	switch r.state {
	case FourgatePass:
	case FourgateFail, FourgateUnknown:
		if r.reason, err = o.str("reason_code", true); err != nil {
			return nil, err
		}
	default:
		return nil, o.d.errAt("/verdict", "unknown outcome verdict %q: Fourgate has PASS, FAIL and UNKNOWN", r.state)
	}
	if r.recovery, err = o.str("recovery", false); err != nil {
		return nil, err
	}
	if r.tool, err = o.str("tool", false); err != nil {
		return nil, err
	}
	return r, checkReason(r)
}

func checkReason(r *fgResult) error {
	if r.state != FourgatePass && r.reason == "" {
		return r.o.d.errAt("/reason_code", "reason_code is empty; a %s names its reason", r.state)
	}
	return nil
}

func fourgateResponse(res *fgResult, data []byte) *agc.Response {
	subj := agc.Subject{Kind: agc.SubjectToolCall, Fingerprint: sha256Of(data)}
	if res.tool != "" {
		subj.Scope = []string{res.tool}
	}
	var note extensions
	note.addString(NoteFingerprintOf, "the bytes of the Fourgate result; it carries no hash of the tool call it judged")
	subj.Unknown = note.value()
	r := newResponse(agc.Gate{ID: fourgateGate, Kind: agc.Deterministic}, subj, fourgateBudget)
	r.Coverage.NotChecked = []string{"fields outside the contract's extract allowlist: only those reach the verifier"}
	if !res.outcome {
		r.Coverage.NotChecked = append(r.Coverage.NotChecked, "whether the contract's allowed_failure_reasons lists the reason code: a bare verifier result does not say, and Fourgate makes any other reason UNKNOWN")
	}
	loc := "tool call"
	if res.tool != "" {
		loc = "tool " + res.tool
	}
	switch res.state {
	case FourgateFail:
		add(r, fourgateFail(res, loc))
	case FourgateUnknown:
		add(r, fourgateUnknown(res, loc))
	}
	setVerdict(r)
	r.Unknown = fourgateKept(res).value()
	return r
}

func fourgateFail(res *fgResult, loc string) agc.Finding {
	rem := delegate("the agent that made the call", "Fourgate verifier reason code "+res.reason)
	if res.recovery != "" {
		rem = delegate("the agent that made the call", fmt.Sprintf("the Fourgate contract's recovery for this failure: %q", res.recovery))
	}
	why := fmt.Sprintf("Fourgate outcome contract: %s is one of the contract's allowed_failure_reasons, so the outcome is a confirmed FAIL.", res.reason)
	if !res.outcome {
		why = fmt.Sprintf("Fourgate verifier protocol: the verifier answered fail with reason code %s.", res.reason)
	}
	return agc.Finding{
		Class: res.reason, Location: loc,
		What:     fmt.Sprintf("The verifier found that the call's outcome is wrong: %s.", res.reason),
		Why:      why,
		Severity: agc.Blocking,
		Remedy:   rem,
		Check:    preview(),
	}
}

func fourgateUnknown(res *fgResult, loc string) agc.Finding {
	return agc.Finding{
		Class: res.reason, Location: loc,
		What:     fmt.Sprintf("Fourgate could not confirm the call's outcome (%s): it neither passed nor failed.", res.reason),
		Why:      "Fourgate outcome contract: UNKNOWN is never a FAIL and never a PASS, so only a person can say whether the call took effect.",
		Severity: agc.Blocking,
		Remedy: decide("the operator of the protected tool",
			fmt.Sprintf("confirm by hand that the call took effect (%s could not be confirmed), then continue", res.reason),
			"treat the call as not done"),
		Check: preview(),
	}
}

// fourgateKept keeps every member of the result under "fourgate/…" names,
// except the verdict or status, whose whole meaning is the AGC verdict,
// and the verifier's evidence: the contract keeps it out of the runtime
// verdict and the outcome log (only a redacted local report sees it), so
// only the fact that there was some is recorded.
func fourgateKept(res *fgResult) extensions {
	var x extensions
	for _, m := range res.o.members {
		switch m.name {
		case "verdict", "status":
		case "evidence":
			x.add("fourgate/evidence", []byte(`"withheld: the Fourgate contract keeps verifier evidence out of verdicts"`))
		default:
			x.add("fourgate/"+m.name, m.value)
		}
	}
	return x
}
