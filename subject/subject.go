package subject

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/go-json-experiment/json/jsontext"
)

// ToolCallDomain tags the document a tool-call fingerprint hashes.
const ToolCallDomain = "agc-action/fingerprint/tool-call/1"

// ToolCall fingerprints a tool call: the SHA-256 of the RFC 8785 canonical
// JSON of {"domain": ToolCallDomain, "scope": [pointers], "fields":
// {pointer: value}}, where the scope is a list of JSON pointers (RFC 6901)
// into call, sorted and deduplicated, "" (the whole call) when empty, and
// fields holds the value at each pointer that exists in call.
func ToolCall(call []byte, scope []string) (string, error) {
	v := jsontext.Value(slices.Clone(call))
	if err := v.Canonicalize(); err != nil {
		return "", fmt.Errorf("tool call: %w", err)
	}
	ptrs := slices.Clone(scope)
	if len(ptrs) == 0 {
		ptrs = []string{""}
	}
	slices.Sort(ptrs)
	ptrs = slices.Compact(ptrs)
	fields := map[string]jsontext.Value{}
	for _, p := range ptrs {
		val, ok, err := at(v, p)
		if err != nil {
			return "", fmt.Errorf("tool call: scope %q: %w", p, err)
		}
		if ok {
			fields[p] = val
		}
	}
	doc, err := toolCallDoc(ptrs, fields)
	if err != nil {
		return "", err
	}
	h := sha256.Sum256(doc)
	return Prefix + hex.EncodeToString(h[:]), nil
}

// Artifact fingerprints an artifact: the SHA-256 of its bytes.
func Artifact(data []byte) string {
	h := sha256.Sum256(data)
	return Prefix + hex.EncodeToString(h[:])
}
