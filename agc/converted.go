package agc

import "fmt"

// ConvertedBudget is the attempt budget of a response converted from
// another format (SARIF, rdjson, a unified diff). It is above 1 because §10
// forbids block at n == budget.
const ConvertedBudget = 3

// NewResponse is the response a gate converted from another format starts
// as: a deterministic gate's first attempt, of ConvertedBudget, on the
// commit whose fingerprint is fp, allowing.
func NewResponse(gate, fp string) *Response {
	return &Response{
		AGC:     Version,
		Gate:    Gate{ID: gate, Kind: Deterministic},
		Subject: Subject{Kind: SubjectCommit, Fingerprint: fp},
		Attempt: Attempt{N: 1, Budget: ConvertedBudget},
		Verdict: Allow,
	}
}

// FindingIDs makes the ids of one response's findings unique: the second
// finding whose id is x becomes x~2, the third x~3.
type FindingIDs map[string]int

// Unique is id, numbered if it came before.
func (ids FindingIDs) Unique(id string) string {
	ids[id]++
	if n := ids[id]; n > 1 {
		return fmt.Sprintf("%s~%d", id, n)
	}
	return id
}
