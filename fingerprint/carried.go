package fingerprint

import (
	"fmt"

	"github.com/go-json-experiment/json"

	"github.com/agcgate/agc-action/agc"
)

// CarriedFromKey names the response member that records a carry
// (docs/fingerprint.md, "Carrying a verdict").
const CarriedFromKey = "agc-action/carried-from"

// CarriedFrom is the value of the CarriedFromKey member.
type CarriedFrom struct {
	SHA         string `json:"sha,omitzero"` // the commit the verdict was judged on
	Fingerprint string `json:"fingerprint"`  // the fingerprint it was judged on
	To          string `json:"to"`           // the commit it is carried to
}

// CarriedRecord returns the carry record of r, if it has one.
func CarriedRecord(r *agc.Response) (CarriedFrom, bool, error) {
	v, ok, err := agc.Member(r.Unknown, CarriedFromKey)
	if err != nil || !ok {
		return CarriedFrom{}, false, err
	}
	var rec CarriedFrom
	if err := json.Unmarshal(v, &rec); err != nil {
		return CarriedFrom{}, false, fmt.Errorf("/%s: %w", CarriedFromKey, err)
	}
	return rec, true, nil
}

// Carry returns a copy of prev carried to commit to: the same verdict and
// findings, with a carry record. judged is the commit prev was judged on
// ("" when unknown); when prev was itself carried, the commit of its record
// is kept, so the record names the commit a gate actually judged.
func Carry(prev *agc.Response, judged, to string) (*agc.Response, error) {
	rec := CarriedFrom{SHA: judged, Fingerprint: prev.Subject.Fingerprint, To: to}
	if old, ok, err := CarriedRecord(prev); err != nil {
		return nil, err
	} else if ok && old.SHA != "" {
		rec.SHA = old.SHA
	}
	val, err := json.Marshal(rec)
	if err != nil {
		return nil, err
	}
	out := *prev
	if out.Unknown, err = agc.SetMember(prev.Unknown, CarriedFromKey, val); err != nil {
		return nil, err
	}
	return &out, nil
}
