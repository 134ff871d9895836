package fingerprint

import (
	"bytes"
	"fmt"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

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
	v, ok, err := unknownMember(r.Unknown, CarriedFromKey)
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
	if out.Unknown, err = setUnknownMember(prev.Unknown, CarriedFromKey, val); err != nil {
		return nil, err
	}
	return &out, nil
}

// unknownMember returns the value of member key of an object of unknown
// members.
func unknownMember(u agc.Unknown, key string) (jsontext.Value, bool, error) {
	var found jsontext.Value
	ok := false
	err := eachMember(u, func(k string, v jsontext.Value) {
		if k == key {
			found, ok = v, true
		}
	})
	return found, ok, err
}

// setUnknownMember returns u with member key set to val, other members
// kept in order.
func setUnknownMember(u agc.Unknown, key string, val jsontext.Value) (agc.Unknown, error) {
	var buf bytes.Buffer
	enc := jsontext.NewEncoder(&buf)
	werr := enc.WriteToken(jsontext.BeginObject)
	write := func(k string, v jsontext.Value) {
		if werr == nil {
			if werr = enc.WriteToken(jsontext.String(k)); werr == nil {
				werr = enc.WriteValue(v)
			}
		}
	}
	if err := eachMember(u, func(k string, v jsontext.Value) {
		if k != key {
			write(k, v)
		}
	}); err != nil {
		return nil, err
	}
	write(key, val)
	if werr == nil {
		werr = enc.WriteToken(jsontext.EndObject)
	}
	if werr != nil {
		return nil, fmt.Errorf("unknown members: %w", werr)
	}
	return agc.Unknown(bytes.TrimSpace(buf.Bytes())), nil
}

// eachMember calls f for each member of the object u (nothing when empty).
func eachMember(u agc.Unknown, f func(k string, v jsontext.Value)) error {
	if len(bytes.TrimSpace(u)) == 0 {
		return nil
	}
	dec := jsontext.NewDecoder(bytes.NewReader(u))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return fmt.Errorf("unknown members: not an object")
	}
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return fmt.Errorf("unknown members: %w", err)
		}
		k := tok.String()
		v, err := dec.ReadValue()
		if err != nil {
			return fmt.Errorf("unknown members: %w", err)
		}
		f(k, bytes.Clone(v))
	}
	return nil
}
