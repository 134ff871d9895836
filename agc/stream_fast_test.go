package agc

import (
	"bytes"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// slowIsJSONLines is what isJSONLines answered before its scan: whether
// the decoder finds a second value after the first.
func slowIsJSONLines(data []byte) bool {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	if err := dec.SkipValue(); err != nil {
		return false
	}
	return dec.PeekKind() != 0
}

var jsonLinesCases = []string{
	`{"a":1}`, "{\"a\":1}\n", "{\"a\":1}\n{\"b\":2}\n", `{"a":"}\"}"}`, `{"a":1}}`, `{"a":[1,{"b":"]"}]} `, `[1,2]`, "[1]\n[2]",
	`{"a":`, `{"a":1} x`, "\xff{", `{"a":"\\"}` + "\n" + `{}`, `"str"`, `{}{}`, ` { } `, `{"a":{"b":{}}}]`,
}

// FuzzIsJSONLines: the scan answers as the decoder alone did.
func FuzzIsJSONLines(f *testing.F) {
	for _, c := range jsonLinesCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := isJSONLines(data), slowIsJSONLines(data); got != want {
			t.Errorf("isJSONLines(%q) = %v, the decoder says %v", data, got, want)
		}
	})
}
