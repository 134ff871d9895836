package validate

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/agcgate/agc-action/agc"
)

// GateID is the id the validator answers under when it acts as a gate.
const GateID = "agc-validate"

// RulesVersion versions the validator's rule set: the spec it enforces and
// a revision of this implementation's rules.
const RulesVersion = "agc-0.1.1/2"

// GateOptions shape the validator's own AGC answer.
type GateOptions struct {
	Chain bool // the inputs were validated as one chain
	// N and Budget are the round of this validation in its caller's chain.
	// Zero means 1 and 3.
	N, Budget int
}

// AsResponse answers as what the validator is, a deterministic gate: one
// AGC response about the input files, with a finding per violation.
func AsResponse(inputs []Input, vs []Violation, opts GateOptions) *agc.Response {
	n, budget := opts.N, opts.Budget
	if n <= 0 {
		n = 1
	}
	if budget <= 0 {
		budget = 3
	}
	r := &agc.Response{
		AGC:      agc.Version,
		Gate:     agc.Gate{ID: GateID, Kind: agc.Deterministic, Version: RulesVersion},
		Subject:  agc.Subject{Kind: agc.SubjectArtifact, Fingerprint: InputsFingerprint(inputs), Scope: names(inputs)},
		Verdict:  agc.Allow,
		Findings: []agc.Finding{},
		Coverage: agc.Coverage{Complete: true, Classes: classes()},
		Attempt:  agc.Attempt{N: n, Budget: budget},
	}
	if !opts.Chain {
		r.Coverage.NotChecked = []string{"§9 rules that need the earlier rounds of a chain (validate with --chain)"}
	}
	seen := map[string]int{}
	escalate := n >= budget && HasErrors(vs)
	for _, v := range vs {
		r.Findings = append(r.Findings, finding(v, inputs, opts.Chain, escalate, seen))
	}
	switch {
	case escalate:
		r.Verdict = agc.Escalate
	case HasErrors(vs):
		r.Verdict = agc.Block
	}
	return r
}

func finding(v Violation, inputs []Input, chain, escalate bool, seen map[string]int) agc.Finding {
	loc := v.Location()
	id := GateID + "/" + v.Rule + "/" + loc
	if k := seen[id]; k > 0 {
		seen[id] = k + 1
		id = fmt.Sprintf("%s~%d", id, k+1)
	} else {
		seen[id] = 1
	}
	rule, _ := RuleFor(v.Rule)
	f := agc.Finding{
		ID:       id,
		Class:    v.Rule,
		Location: loc,
		What:     v.Message,
		Why:      fmt.Sprintf("Rule %s (AGC %s): %s", v.Rule, v.Section, rule.Summary),
		Severity: agc.Advisory,
		Status:   agc.StatusNew,
		Remedy: agc.Remedy{Kind: agc.RemedyDelegate, Role: "the gate that wrote " + v.doc(),
			Authority: "agc-spec-v0.1.1 " + v.Section},
		Check: agc.Check{Kind: agc.CheckCommand, Run: recheck(inputs, chain)},
	}
	if v.Severity == SeverityError {
		f.Severity = agc.Blocking
		if escalate {
			f.Remedy = agc.Remedy{Kind: agc.RemedyDecide, Ask: "the maintainers of the gate that wrote " + v.doc(),
				Options: []string{"fix the gate and answer again", "reject this answer"}}
		}
	}
	return f
}

// recheck is the command that re-validates the inputs.
func recheck(inputs []Input, chain bool) string {
	args := []string{"agc-sarif", "validate"}
	if chain {
		args = append(args, "--chain")
	}
	args = append(args, "--") // a file named -x.json is a file
	for _, in := range inputs {
		args = append(args, shellQuote(in.File))
	}
	return strings.Join(args, " ")
}

func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@+=,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func names(inputs []Input) []string {
	out := make([]string, len(inputs))
	for i, in := range inputs {
		out[i] = in.File
	}
	return out
}

func classes() []string {
	out := make([]string, len(rules))
	for i, r := range rules {
		out[i] = r.Class
	}
	return out
}

// InputsFingerprint is the subject fingerprint of validated files: the
// SHA-256 of the one file's bytes, or for several files the SHA-256 of the
// lines "<name>\t<sha256 hex of its bytes>\n" in order.
func InputsFingerprint(inputs []Input) string {
	if len(inputs) == 1 {
		sum := sha256.Sum256(inputs[0].Data)
		return "sha256:" + hex.EncodeToString(sum[:])
	}
	h := sha256.New()
	for _, in := range inputs {
		sum := sha256.Sum256(in.Data)
		fmt.Fprintf(h, "%s\t%s\n", in.File, hex.EncodeToString(sum[:]))
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}
