package agc

import (
	"crypto/sha256"
	"strconv"
)

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
// finding whose id is x becomes x~2, the third x~3, skipping a number some
// finding already holds (a source may name one x~2). It keeps a 128-bit
// hash of each id handed out rather than the id, a fifth of the memory for
// a million findings; two ids with one hash (odds of about 1 in 10^27
// among a million) would be numbered as one.
type FindingIDs map[[16]byte]int32

// Unique is id, numbered if it came before.
func (ids FindingIDs) Unique(id string) string {
	k := idKey(id)
	n, taken := ids[k]
	if !taken {
		ids[k] = 1
		return id
	}
	for n++; ; n++ {
		u := id + "~" + strconv.Itoa(int(n))
		if ku := idKey(u); !ids.has(ku) {
			ids[k], ids[ku] = n, 1
			return u
		}
	}
}

func (ids FindingIDs) has(k [16]byte) bool { _, ok := ids[k]; return ok }

func idKey(id string) [16]byte {
	sum := sha256.Sum256([]byte(id))
	return [16]byte(sum[:16])
}
