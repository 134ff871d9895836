package subject

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// at returns the value at JSON pointer p (RFC 6901) in v, and whether it
// exists.
func at(v jsontext.Value, p string) (jsontext.Value, bool, error) {
	if p == "" {
		return v, true, nil
	}
	if !strings.HasPrefix(p, "/") {
		return nil, false, fmt.Errorf("a JSON pointer starts with \"/\"")
	}
	for _, tok := range strings.Split(p[1:], "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		next, ok, err := child(v, tok)
		if err != nil || !ok {
			return nil, false, err
		}
		v = next
	}
	return v, true, nil
}

// child returns member name of an object, or element name of an array.
func child(v jsontext.Value, name string) (jsontext.Value, bool, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(v))
	open, err := dec.ReadToken()
	if err != nil {
		return nil, false, err
	}
	switch open.Kind() {
	case '{':
		for dec.PeekKind() != '}' {
			k, err := dec.ReadToken()
			if err != nil {
				return nil, false, err
			}
			key := k.String()
			val, err := dec.ReadValue()
			if err != nil {
				return nil, false, err
			}
			if key == name {
				return bytes.Clone(val), true, nil
			}
		}
	case '[':
		n, err := strconv.Atoi(name)
		if err != nil || n < 0 || name != strconv.Itoa(n) {
			return nil, false, nil
		}
		for i := 0; dec.PeekKind() != ']'; i++ {
			val, err := dec.ReadValue()
			if err != nil {
				return nil, false, err
			}
			if i == n {
				return bytes.Clone(val), true, nil
			}
		}
	}
	return nil, false, nil
}

// toolCallDoc builds the canonical document a tool-call fingerprint hashes.
func toolCallDoc(scope []string, fields map[string]jsontext.Value) ([]byte, error) {
	doc, err := json.Marshal(struct {
		Domain string                    `json:"domain"`
		Scope  []string                  `json:"scope"`
		Fields map[string]jsontext.Value `json:"fields"`
	}{ToolCallDomain, scope, fields})
	if err == nil {
		err = (*jsontext.Value)(&doc).Canonicalize()
	}
	if err != nil {
		return nil, fmt.Errorf("tool call: %w", err)
	}
	return doc, nil
}
