package sarif

import (
	"fmt"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// restoreRun rebuilds the response a run was written from (Write). The
// agc/ properties are authoritative for what SARIF has no field for; class,
// what and the finding set come from the native fields. A result without
// agc/ properties (added by someone else) is converted as any result is.
// When the properties cannot be decoded it returns nil and lint, and the
// run is converted like any other; else the response and the lint of the
// results it converted.
func restoreRun(run *Run, src *Source, opts Options) (*agc.Response, []diag.Lint) {
	p := ptr(run.Pointer, "properties")
	r := &agc.Response{AGC: agc.Version}
	var lints diag.Lints // one for each result at worst: bounded
	get := func(key string, into any) bool {
		v, ok := run.Props[key]
		if !ok {
			return false
		}
		if err := fromTree(v, into); err != nil {
			lints.Add(lintAt(ptr(p, key), fmt.Sprintf("cannot be read as AGC: %v; the run is converted as a plain SARIF run", err)))
		}
		return true
	}
	get(propGate, &r.Gate)
	get(propSubject, &r.Subject)
	get(propVerdict, &r.Verdict)
	get(propCoverage, &r.Coverage)
	get(propAttempt, &r.Attempt)
	var carried []string
	if get(propCarried, &carried) {
		r.Carried = append([]string{}, carried...)
	}
	get(propUnknown, &r.Unknown)
	gate := r.Gate.ID
	ids := agc.FindingIDs{}
	var converted diag.Lints // of the results converted rather than restored
	for _, res := range run.Results {
		if _, ok := res.Props[propOther]; ok {
			continue
		}
		if _, ok := res.Props[propID]; !ok {
			f := finding(run, res, gate, src, opts, &converted)
			f.ID = ids.Unique(f.ID)
			r.Findings = append(r.Findings, f)
			continue
		}
		f, ls := restoreFinding(res)
		lints.AddAll(ls)
		r.Findings = append(r.Findings, f)
	}
	if lints.Len() > 0 {
		return nil, lints.List()
	}
	return r, converted.List()
}

func restoreFinding(res *Result) (agc.Finding, []diag.Lint) {
	f := agc.Finding{Class: res.RuleID, What: res.Message}
	p := ptr(res.Pointer, "properties")
	var lints []diag.Lint
	for key, into := range map[string]any{
		propID: &f.ID, propLocation: &f.Location, propWhy: &f.Why, propSeverity: &f.Severity,
		propStatus: &f.Status, propRemedy: &f.Remedy, propCheck: &f.Check, propUnknown: &f.Unknown,
	} {
		v, ok := res.Props[key]
		if !ok {
			continue
		}
		if err := fromTree(v, into); err != nil {
			lints = append(lints, lintAt(ptr(p, key), fmt.Sprintf("cannot be read as AGC: %v", err)))
		}
	}
	return f, lints
}

// fromTree decodes a generic JSON tree into an AGC type.
func fromTree(v any, into any) error {
	b, err := json.Marshal(v, json.Deterministic(true))
	if err != nil {
		return err
	}
	if u, ok := into.(*agc.Unknown); ok {
		*u = jsontext.Value(b)
		return nil
	}
	return json.Unmarshal(b, into)
}
