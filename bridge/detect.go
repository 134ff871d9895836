package bridge

import (
	"bytes"
	"regexp"

	"github.com/go-json-experiment/json/jsontext"
)

// detectWindow bounds how much of an input detection reads.
const detectWindow = 1 << 20

// contractFence is an opening fence whose info string starts with
// json:contract. JSON (AGC, SARIF) cannot hold it: a JSON string has no raw
// line break, so no JSON line starts with a fence.
var contractFence = regexp.MustCompile("(?m)^ {0,3}(?:```+|~~~+)[ \t]*json:contract(?:[ \t]|\r?$)")

// LooksLikeAgentProtocol reports whether data is a message with a fenced
// json:contract block.
func LooksLikeAgentProtocol(data []byte) bool {
	return contractFence.Match(data)
}

// LooksLikeReceipt reports whether data is a JSON object with the members
// only an admission receipt has together: attempt_digest, requested_action
// and enacted_action (and no "agc" member, as an AGC response would have).
func LooksLikeReceipt(data []byte) bool {
	m := topMembers(data)
	return m != nil && m["attempt_digest"] == '"' && m["requested_action"] == '"' && m["enacted_action"] == '"' && m["agc"] == 0
}

// LooksLikeFourgate reports whether data is a JSON object that is a
// verifier result ("status" with no "agc", "runs" or "version" member) or
// an outcome verdict ("verdict" with no "agc" member; AGC's own verdict
// member always comes with "agc"). The values are checked by FromFourgate.
func LooksLikeFourgate(data []byte) bool {
	m := topMembers(data)
	if m == nil || m["agc"] != 0 || m["runs"] != 0 {
		return false
	}
	return (m["status"] == '"') != (m["verdict"] == '"')
}

// topMembers returns the kinds of the top-level members of data when it
// starts with a JSON object (nil otherwise). It reads at most detectWindow
// bytes and does not check the rest.
func topMembers(data []byte) map[string]jsontext.Kind {
	if len(data) > detectWindow {
		data = data[:detectWindow]
	}
	dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil
	}
	m := map[string]jsontext.Kind{}
	for dec.PeekKind() == '"' {
		tok, err := dec.ReadToken()
		if err != nil {
			return m
		}
		name := tok.String()
		k := dec.PeekKind()
		if err := dec.SkipValue(); err != nil {
			return m
		}
		m[name] = k
	}
	return m
}
