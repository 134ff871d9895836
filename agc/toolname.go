package agc

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
)

// ToolGateID is the gate id of a tool named name (a SARIF run, an rdjson
// source, a fixer): Slug(name)
// (lower case; every run of characters other than a-z 0-9 . _ - becomes
// one "-"), without leading ".", "_" or "-", and when longer than
// MaxGateIDLen, cut and ended with "-" and 8 hex digits of the SHA-256
// of name. It is always an id CheckGateID accepts. Distinct names can
// share an id ("ESLint", "eslint"); Clashes finds them.
func ToolGateID(name string) string {
	id := strings.TrimLeft(Slug(name), "._-")
	if id == "" {
		return "unknown-tool"
	}
	if len(id) > MaxGateIDLen {
		sum := sha256.Sum256([]byte(name))
		id = id[:MaxGateIDLen-9] + "-" + hex.EncodeToString(sum[:4])
	}
	return id
}

// A Clash is a gate id that several distinct tool names became.
type Clash struct {
	ID    string
	Tools []string // the distinct tool names, in the order first seen
}

// Clashes finds, among runs given in order as their gate ids and tool
// names (ids[i] is the gate of the run of tools[i]), the ids that distinct
// tool names share. Two runs of one tool are no clash: they are two
// answers of one gate.
func Clashes(ids, tools []string) []Clash {
	byID := map[string][]string{}
	var order []string
	for i, id := range ids {
		names, seen := byID[id]
		if !seen {
			order = append(order, id)
		}
		if !slices.Contains(names, tools[i]) {
			byID[id] = append(names, tools[i])
		}
	}
	var out []Clash
	for _, id := range order {
		if len(byID[id]) > 1 {
			out = append(out, Clash{ID: id, Tools: byID[id]})
		}
	}
	return out
}

// Slug is a gate id made from a tool name: lower case, runs of characters
// other than a-z, 0-9, '.', '_' and '-' become one '-'.
func Slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	s := strings.Trim(b.String(), "-")
	if s == "" {
		return "unknown-tool"
	}
	return s
}
