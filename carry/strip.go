package carry

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agcgate/agc-action/agc"
)

// OwnPrefix begins the names of the members agc-action writes into a
// response (RecordKey). On the GitHub paths they are agc-action's alone: a
// gate's answer is judged content, and a member it brings under this
// prefix is a forgery, so Strip removes it before anything reads it.
const OwnPrefix = "agc-action/"

// FormatMembers are the members under OwnPrefix that agc-action's readers
// derive from the input itself, which Strip keeps: a SARIF result's
// location and rule (package sarif, agc-action/sarif) and its rule's help
// page (agc-action/helpUri, shown as a link only when https), what a bridged
// fingerprint hashes and how a rewrite's input is given (package bridge),
// and a Reviewdog diagnostic as it was read (package rdf, agc-action/rdf).
// They are data of the answer, with no more say than its other fields, and
// no record of agc-action's. Any other member under OwnPrefix, a name
// agc-action uses later included, is stripped.
var FormatMembers = []string{"agc-action/sarif", "agc-action/helpUri", "agc-action/fingerprint-of", "agc-action/input-kind", "agc-action/rdf"}

// Stripped is one member Strip removed.
type Stripped struct {
	Pointer string // its JSON pointer inside the response
	Name    string
}

// String is the lint line's text (after the place).
func (s Stripped) String() string {
	return fmt.Sprintf("%s: member %q removed: members under %s are written by agc-action alone, never by a gate's answer", s.Pointer, s.Name, OwnPrefix)
}

// Strip removes from r every member whose name starts with OwnPrefix,
// but FormatMembers, in each object of the contract that keeps members it
// does not define (the response, gate, subject, coverage, attempt,
// findings, their remedies, edits and checks), and returns them in
// document order. Other members, another vendor's included, are kept in
// their order. On error r is unchanged.
func Strip(r *agc.Response) ([]Stripped, error) {
	type place struct {
		at string
		u  *agc.Unknown
	}
	places := []place{{"", &r.Unknown}, {"/gate", &r.Gate.Unknown}, {"/subject", &r.Subject.Unknown}}
	for i := range r.Findings {
		f := &r.Findings[i]
		at := fmt.Sprintf("/findings/%d", i)
		places = append(places, place{at, &f.Unknown}, place{at + "/remedy", &f.Remedy.Unknown})
		for j := range f.Remedy.Edits {
			places = append(places, place{fmt.Sprintf("%s/remedy/edits/%d", at, j), &f.Remedy.Edits[j].Unknown})
		}
		places = append(places, place{at + "/check", &f.Check.Unknown})
	}
	places = append(places, place{"/coverage", &r.Coverage.Unknown}, place{"/attempt", &r.Attempt.Unknown})

	var out []Stripped
	kept := make([]agc.Unknown, len(places))
	for i, p := range places {
		u, gone, err := without(*p.u)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.at, err)
		}
		kept[i] = u
		for _, name := range gone {
			out = append(out, Stripped{Pointer: p.at + "/" + agc.PointerToken(name), Name: name})
		}
	}
	for i, p := range places {
		*p.u = kept[i]
	}
	return out, nil
}

// without returns u without its members under OwnPrefix, and their names;
// u itself when it has none, nil when none is left.
func without(u agc.Unknown) (agc.Unknown, []string, error) {
	var gone []string
	var buf bytes.Buffer
	enc := jsontext.NewEncoder(&buf)
	werr := enc.WriteToken(jsontext.BeginObject)
	n := 0
	err := agc.EachMember(u, func(k string, v jsontext.Value) {
		if strings.HasPrefix(k, OwnPrefix) && !slices.Contains(FormatMembers, k) {
			gone = append(gone, k)
			return
		}
		n++
		if werr == nil {
			if werr = enc.WriteToken(jsontext.String(k)); werr == nil {
				werr = enc.WriteValue(v)
			}
		}
	})
	switch {
	case err != nil:
		return nil, nil, err
	case len(gone) == 0:
		return u, nil, nil
	case n == 0:
		return nil, gone, nil
	}
	if werr == nil {
		werr = enc.WriteToken(jsontext.EndObject)
	}
	if werr != nil {
		return nil, nil, fmt.Errorf("unknown members: %w", werr)
	}
	return agc.Unknown(bytes.TrimSpace(buf.Bytes())), gone, nil
}
