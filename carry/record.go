package carry

import (
	"fmt"

	"github.com/go-json-experiment/json"

	"github.com/agcgate/agc-action/agc"
)

// RecordKey names the response member that records a carry
// (docs/fingerprint.md, "Carrying a verdict").
const RecordKey = "agc-action/carried-from"

// Record is the value of the RecordKey member.
type Record struct {
	SHA         string `json:"sha,omitzero"` // the commit the verdict was judged on
	Fingerprint string `json:"fingerprint"`  // the fingerprint it was judged on
	To          string `json:"to"`           // the commit it is carried to
}

// ReadRecord returns the carry record of r, if it has one.
func ReadRecord(r *agc.Response) (Record, bool, error) {
	v, ok, err := agc.Member(r.Unknown, RecordKey)
	if err != nil || !ok {
		return Record{}, false, err
	}
	var rec Record
	if err := json.Unmarshal(v, &rec); err != nil {
		return Record{}, false, fmt.Errorf("/%s: %w", RecordKey, err)
	}
	return rec, true, nil
}

// Forward returns a copy of prev carried to commit to: the same verdict and
// findings, with a carry record. judged is the commit prev was judged on
// ("" when unknown); when prev was itself carried, the commit of its record
// is kept, so the record names the commit a gate actually judged.
func Forward(prev *agc.Response, judged, to string) (*agc.Response, error) {
	rec := Record{SHA: judged, Fingerprint: prev.Subject.Fingerprint, To: to}
	if old, ok, err := ReadRecord(prev); err != nil {
		return nil, err
	} else if ok && old.SHA != "" {
		rec.SHA = old.SHA
	}
	return withRecord(prev, rec)
}

// withRecord returns a copy of prev with the carry record rec.
func withRecord(prev *agc.Response, rec Record) (*agc.Response, error) {
	val, err := json.Marshal(rec)
	if err != nil {
		return nil, err
	}
	out := *prev
	if out.Unknown, err = agc.SetMember(prev.Unknown, RecordKey, val); err != nil {
		return nil, err
	}
	return &out, nil
}
