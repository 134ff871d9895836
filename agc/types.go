// Package agc holds the Agent Gate Contract 0.1 as Go types, with a strict
// decoder and a canonical encoder. It does no I/O: callers hand it bytes and
// a name for error messages.
//
// Section numbers in comments refer to agc-spec-v0.1.1.
package agc

import "github.com/go-json-experiment/json/jsontext"

// Version is the only contract version this package understands (§3).
const Version = "0.1"

// Verdicts (§6).
const (
	Allow    = "allow"
	Repaired = "repaired"
	Block    = "block"
	Escalate = "escalate"
)

// Gate kinds (§4).
const (
	Deterministic = "deterministic"
	Judgment      = "judgment"
)

// Subject kinds (§5).
const (
	SubjectToolCall    = "tool-call"
	SubjectDiff        = "diff"
	SubjectCommit      = "commit"
	SubjectArtifact    = "artifact"
	SubjectPullRequest = "pull-request"
	SubjectSession     = "session"
)

// Severities, statuses (§7).
const (
	Blocking = "blocking"
	Advisory = "advisory"

	StatusNew       = "new"
	StatusStillOpen = "still-open"
	StatusRegressed = "regressed"
)

// Remedy kinds (§7.1), strongest first.
const (
	RemedyRewrite  = "rewrite"
	RemedyGenerate = "generate"
	RemedyPatch    = "patch"
	RemedyCommand  = "command"
	RemedyDelegate = "delegate"
	RemedyDecide   = "decide"
)

// Check kinds (§7.2).
const (
	CheckCommand   = "command"
	CheckPreview   = "preview"
	CheckCondition = "condition"
)

// Unknown holds object members the contract does not define. They are kept
// so that nothing a gate said is silently dropped, and re-emitted on encode.
type Unknown = jsontext.Value

// Response is one gate answer (§3).
type Response struct {
	AGC      string    `json:"agc"`
	Gate     Gate      `json:"gate"`
	Subject  Subject   `json:"subject"`
	Verdict  string    `json:"verdict"`
	Findings []Finding `json:"findings,omitzero"`
	Coverage Coverage  `json:"coverage"`
	Attempt  Attempt   `json:"attempt"`
	Carried  []string  `json:"carried,omitzero"`
	Unknown  Unknown   `json:",embed"`
}

// Gate identifies who answered (§4).
type Gate struct {
	ID      string  `json:"id"`
	Kind    string  `json:"kind"`
	Version string  `json:"version,omitzero"`
	Unknown Unknown `json:",embed"`
}

// Subject is what was judged (§5).
type Subject struct {
	Kind        string   `json:"kind"`
	Fingerprint string   `json:"fingerprint"`
	Scope       []string `json:"scope,omitzero"`
	Unknown     Unknown  `json:",embed"`
}

// Finding is one violation at one location (§7).
type Finding struct {
	ID       string  `json:"id"`
	Class    string  `json:"class"`
	Location string  `json:"location"`
	What     string  `json:"what"`
	Why      string  `json:"why"`
	Severity string  `json:"severity"`
	Status   string  `json:"status"`
	Remedy   Remedy  `json:"remedy"`
	Check    Check   `json:"check"`
	Unknown  Unknown `json:",embed"`
}

// Remedy is the strongest fix available (§7.1). Which payload fields are
// required depends on Kind.
type Remedy struct {
	Kind      string         `json:"kind"`
	Input     jsontext.Value `json:"input,omitzero"`     // rewrite
	Tool      string         `json:"tool,omitzero"`      // generate
	Edits     []Edit         `json:"edits,omitzero"`     // patch
	Run       string         `json:"run,omitzero"`       // command
	Role      string         `json:"role,omitzero"`      // delegate
	Authority string         `json:"authority,omitzero"` // delegate (SHOULD)
	Ask       string         `json:"ask,omitzero"`       // decide
	Options   []string       `json:"options,omitzero"`   // decide
	Applied   *bool          `json:"applied,omitzero"`
	Unknown   Unknown        `json:",embed"`
}

// IsApplied reports whether the gate says it applied the remedy itself.
func (r Remedy) IsApplied() bool { return r.Applied != nil && *r.Applied }

// Edit is one exact text replacement of a patch remedy.
type Edit struct {
	Path    string  `json:"path"`
	Find    string  `json:"find"`
	Replace string  `json:"replace"`
	Unknown Unknown `json:",embed"`
}

// Check lets the agent confirm a fix before it resubmits (§7.2).
type Check struct {
	Kind      string  `json:"kind"`
	Run       string  `json:"run,omitzero"`
	Condition string  `json:"condition,omitzero"`
	Unknown   Unknown `json:",embed"`
}

// Coverage says what was checked and what was not (§8).
type Coverage struct {
	Complete   bool     `json:"complete"`
	Classes    []string `json:"classes"`
	NotChecked []string `json:"not_checked,omitzero"`
	Unknown    Unknown  `json:",embed"`
}

// Attempt counts rounds against a budget (§10).
type Attempt struct {
	N       int     `json:"n"`
	Budget  int     `json:"budget"`
	Unknown Unknown `json:",embed"`
}

// Blocking returns the findings whose severity is blocking.
func (r *Response) Blocking() []*Finding {
	var out []*Finding
	for i := range r.Findings {
		if r.Findings[i].Severity == Blocking {
			out = append(out, &r.Findings[i])
		}
	}
	return out
}
