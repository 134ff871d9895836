// Package agctest builds AGC findings and responses for tests, with
// predictable text derived from their ids, so the tests of the packages
// that place, render and post findings start from the same values. It does
// no I/O.
package agctest

import "github.com/agcgate/agc-action/agc"

// Finding is the new finding gate/id of class c-id at loc, with a
// command remedy and a preview check.
func Finding(gate, id, loc, severity string) agc.Finding {
	return agc.Finding{ID: gate + "/" + id, Class: "c-" + id, Location: loc, What: "What is wrong with " + id + ".",
		Why: "Rule " + id + " says so.", Severity: severity, Status: agc.StatusNew,
		Remedy: agc.Remedy{Kind: agc.RemedyCommand, Run: "make fix"}, Check: agc.Check{Kind: agc.CheckPreview}}
}

// Response is a deterministic gate's first attempt with verdict and the
// findings fs, its coverage complete over their classes.
func Response(gate, verdict string, fs ...agc.Finding) *agc.Response {
	classes := []string{}
	for _, f := range fs {
		classes = append(classes, f.Class)
	}
	return &agc.Response{AGC: agc.Version, Gate: agc.Gate{ID: gate, Kind: agc.Deterministic, Version: "1"},
		Subject: agc.Subject{Kind: agc.SubjectDiff, Fingerprint: "sha256:00"}, Verdict: verdict, Findings: fs,
		Coverage: agc.Coverage{Complete: true, Classes: classes}, Attempt: agc.Attempt{N: 1, Budget: 3}}
}
