package formats

import (
	"bytes"

	"github.com/go-json-experiment/json/jsontext"
)

// detectWindow bounds how much of an input detection reads.
const detectWindow = 1 << 20

// LooksLikeAGC reports whether data starts with an AGC response: an object
// with an "agc" member, or an array (or JSON Lines) whose first element is
// one.
func LooksLikeAGC(data []byte) bool {
	if len(data) > detectWindow {
		data = data[:detectWindow]
	}
	dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if dec.PeekKind() == '[' {
		if _, err := dec.ReadToken(); err != nil {
			return false
		}
	}
	return hasMember(dec, "agc")
}

// LooksLikeSARIF reports whether data is an object with a "runs" member,
// or with a "version" of "2.1.0" and a "$schema" that names SARIF.
func LooksLikeSARIF(data []byte) bool {
	if len(data) > detectWindow {
		data = data[:detectWindow]
	}
	dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	m := members(dec)
	if _, ok := m["runs"]; ok {
		return true
	}
	return m["version"] == `"2.1.0"` && bytes.Contains(bytes.ToLower([]byte(m["$schema"])), []byte("sarif"))
}

func hasMember(dec *jsontext.Decoder, name string) bool {
	_, ok := members(dec)[name]
	return ok
}

// members reads the object at the decoder's position and returns its
// members' raw values (strings only; other values as ""), stopping at the
// first error.
func members(dec *jsontext.Decoder) map[string]string {
	m := map[string]string{}
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return m
	}
	for dec.PeekKind() == '"' {
		tok, err := dec.ReadToken()
		if err != nil {
			return m
		}
		name := tok.String() // a token is valid only until the next read
		if dec.PeekKind() == '"' {
			v, err := dec.ReadValue()
			if err != nil {
				return m
			}
			m[name] = string(v)
			continue
		}
		m[name] = ""
		if err := dec.SkipValue(); err != nil {
			return m
		}
	}
	return m
}
