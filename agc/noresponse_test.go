package agc

import (
	"errors"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/diag"
)

// TestNoResponse: an input that holds no response (issue 11, case 7) is
// an error of its own class, never zero answers that pass.
func TestNoResponse(t *testing.T) {
	for _, in := range []string{"", "\n", " \n\t\n", "[]", " [ \n ] \n", "\n\n\n"} {
		docs, err := DecodeAll("f.json", []byte(in), Limits{})
		var e *diag.Error
		if !errors.As(err, &e) || e.Class != ClassNoResponse || len(docs) != 0 {
			t.Errorf("%q: %v %d docs, want %s", in, err, len(docs), ClassNoResponse)
			continue
		}
		if !strings.HasPrefix(err.Error(), "f.json:") || !strings.Contains(err.Error(), "no AGC response") {
			t.Errorf("%q: %v", in, err)
		}
	}
	for _, in := range []string{"[{}]", "[1]", "[] x", "[]\n[]", "{}"} {
		var e *diag.Error
		if err := CheckNotEmpty("f", []byte(in)); errors.As(err, &e) {
			t.Errorf("%q: %v", in, err)
		}
	}
}
