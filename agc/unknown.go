package agc

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// Member returns the value of member key of an object of unknown
// members.
func Member(u Unknown, key string) (jsontext.Value, bool, error) {
	var found jsontext.Value
	ok := false
	err := EachMember(u, func(k string, v jsontext.Value) {
		if k == key {
			found, ok = v, true
		}
	})
	return found, ok, err
}

// SetMember returns u with member key set to val, other members kept in
// order: how a tool adds a namespaced extension member to a response.
func SetMember(u Unknown, key string, val jsontext.Value) (Unknown, error) {
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
	if err := EachMember(u, func(k string, v jsontext.Value) {
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
	return Unknown(bytes.TrimSpace(buf.Bytes())), nil
}

// EachMember calls f for each member of the object u (nothing when empty).
func EachMember(u Unknown, f func(k string, v jsontext.Value)) error {
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

// PointerToken escapes one reference token of a JSON pointer (RFC 6901).
func PointerToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
