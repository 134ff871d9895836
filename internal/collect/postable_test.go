package collect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/internal/testkit"
	"github.com/agcgate/agc-action/validate"
)

// TestValidateReportsWhatTheActionRefuses: one set of rules decides what
// an answer may be (issue 24, item 6). For every rule fixture and a few
// more gate ids, each answer the Action refuses to post as its gate is
// reported by validate, with the same rule, message and place, and
// validate reports nothing of action.gate-id that the Action would post.
// "Code Review" was valid to validate and refused by the Action.
func TestValidateReportsWhatTheActionRefuses(t *testing.T) {
	files := testkit.Glob(t, "../../fixtures/agc/rules/*.json*")
	inputs := map[string][]byte{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs[filepath.Base(f)] = data
	}
	for _, id := range []string{"Code Review", "agc-validate", "code-review//api", "/lead", "trail/", ".hidden", "ok-gate", "a/b.c_d-e"} {
		inputs["id "+id+".json"] = []byte(strings.Replace(okAnswer, `"id":"g"`, `"id":"`+id+`"`, 1))
	}
	refusedSome := false
	for name, data := range inputs {
		c := New(nil)
		c.AddAGC(name, data, "")
		c.PlaceRefusals()
		action := gateIDFindings(c.Vs)
		// Each answer on its own: the Action refuses a second answer of a
		// gate as a chain, which validate checks with --chain.
		valid := gateIDFindings(validate.Inputs([]validate.Input{{File: name, Data: data}}, validate.Options{Chain: strings.HasPrefix(name, "chain-")}))
		if len(action) > 0 {
			refusedSome = true
		}
		if strings.Join(action, "\n") != strings.Join(valid, "\n") {
			t.Errorf("%s:\nthe Action refuses:\n  %s\nvalidate reports:\n  %s", name, strings.Join(action, "\n  "), strings.Join(valid, "\n  "))
		}
	}
	if !refusedSome {
		t.Fatal("no answer was refused: the test checks nothing")
	}
}

func gateIDFindings(vs []validate.Violation) []string {
	var out []string
	for _, v := range vs {
		if v.Rule == validate.ClassGateID {
			out = append(out, v.String())
		}
	}
	return out
}
