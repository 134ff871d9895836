package review

import (
	"strconv"

	"github.com/agcgate/agc-action/agc"
)

func itoaT(i int) string { return strconv.Itoa(i) }

func finding(gate, id, loc, severity string) agc.Finding {
	return agc.Finding{ID: gate + "/" + id, Class: "c-" + id, Location: loc, What: "What is wrong with " + id + ".",
		Why: "Rule " + id + " says so.", Severity: severity, Status: agc.StatusNew,
		Remedy: agc.Remedy{Kind: agc.RemedyCommand, Run: "make fix"}, Check: agc.Check{Kind: agc.CheckPreview}}
}

func response(gate, verdict string, fs ...agc.Finding) *agc.Response {
	classes := []string{}
	for _, f := range fs {
		classes = append(classes, f.Class)
	}
	return &agc.Response{AGC: agc.Version, Gate: agc.Gate{ID: gate, Kind: agc.Deterministic, Version: "1"},
		Subject: agc.Subject{Kind: agc.SubjectDiff, Fingerprint: "sha256:00"}, Verdict: verdict, Findings: fs,
		Coverage: agc.Coverage{Complete: true, Classes: classes}, Attempt: agc.Attempt{N: 1, Budget: 3}}
}
