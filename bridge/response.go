package bridge

import "github.com/agcgate/agc-action/agc"

// NoteFingerprintOf is the subject member that says what a bridged
// fingerprint hashes when the source carries no hash of the judged content.
const NoteFingerprintOf = "agc-action/fingerprint-of"

// newResponse starts a response of round 1 of budget with no findings.
func newResponse(gate agc.Gate, subject agc.Subject, budget int) *agc.Response {
	return &agc.Response{
		AGC:      agc.Version,
		Gate:     gate,
		Subject:  subject,
		Verdict:  agc.Allow,
		Findings: []agc.Finding{},
		Coverage: agc.Coverage{Complete: false, Classes: []string{}},
		Attempt:  agc.Attempt{N: 1, Budget: budget},
	}
}

// add appends a finding whose id takes the RECOMMENDED form
// <gate.id>/<class>/<location> (§7), and lists its class in coverage.
func add(r *agc.Response, f agc.Finding) {
	f.ID = r.Gate.ID + "/" + f.Class + "/" + f.Location
	if f.Status == "" {
		f.Status = agc.StatusNew
	}
	r.Findings = append(r.Findings, f)
	if !contains(r.Coverage.Classes, f.Class) {
		r.Coverage.Classes = append(r.Coverage.Classes, f.Class)
	}
}

// setVerdict derives the verdict from the findings: escalate when a
// blocking finding must be decided by a person, repaired when every
// blocking finding was repaired, block when any blocking finding remains.
func setVerdict(r *agc.Response) {
	blocking := r.Blocking()
	if len(blocking) == 0 {
		r.Verdict = agc.Allow
		return
	}
	repaired := true
	for _, f := range blocking {
		if f.Remedy.Kind == agc.RemedyDecide {
			r.Verdict = agc.Escalate
			return
		}
		if f.Remedy.Kind != agc.RemedyRewrite && f.Remedy.Kind != agc.RemedyGenerate || !f.Remedy.IsApplied() {
			repaired = false
		}
	}
	if repaired {
		r.Verdict = agc.Repaired
		return
	}
	r.Verdict = agc.Block
}

func yes() *bool { t := true; return &t }

func decide(ask string, options ...string) agc.Remedy {
	return agc.Remedy{Kind: agc.RemedyDecide, Ask: ask, Options: options}
}

func delegate(role, authority string) agc.Remedy {
	return agc.Remedy{Kind: agc.RemedyDelegate, Role: role, Authority: authority}
}

func preview() agc.Check { return agc.Check{Kind: agc.CheckPreview} }
