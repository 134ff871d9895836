package validate

import (
	"strings"
	"testing"
)

// TestPostablePlaces: an answer agc-action refuses to post is an
// action.gate-id violation of validate, at the gate id's line, column and
// pointer, in an object, an array and JSON Lines; ContractOnly leaves it
// out (the contract allows any non-empty id, §4).
func TestPostablePlaces(t *testing.T) {
	const good = `{"gate":{"id":"ok"}}`
	const bad = `{"gate":{"id":"A\nB"}}`
	cases := []struct{ name, data, want string }{
		{"object", bad, `f:1:15: /gate/id: error: action.gate-id (§4): gate id "A\nB" holds 'A' (upper case)`},
		{"array", "[" + good + ",\n " + bad + "]", `f:2:16: /1/gate/id: error: action.gate-id (§4):`},
		{"jsonl", good + "\n" + good + "\n" + bad + "\n", `f:3:15: /gate/id: error: action.gate-id (§4):`},
		{"reserved", `{"gate":{"id":"agc-validate"}}`, `f:1:15: /gate/id: error: action.gate-id (§4): gate id agc-validate is the validator's own`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []Violation
			for _, v := range Inputs([]Input{{File: "f", Data: []byte(c.data)}}, Options{}) {
				if v.Rule == ClassGateID {
					got = append(got, v)
				}
			}
			if len(got) != 1 || !strings.HasPrefix(got[0].String(), c.want) {
				t.Fatalf("got %s, want one %s…", list(got), c.want)
			}
			if off := got[0].Offset; int(off) >= len(c.data) || c.data[off] != '"' {
				t.Errorf("offset %d does not point at the id's string", off)
			}
			for _, v := range Inputs([]Input{{File: "f", Data: []byte(c.data)}}, Options{ContractOnly: true}) {
				if v.Rule == ClassGateID {
					t.Errorf("ContractOnly reported %s", v)
				}
			}
		})
	}
}
