package collect

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/diag"
)

// TestAttackStripLintsBounded is the flood of lint lines an input can draw
// through stripOwn: every answer of a JSON Lines file brings its own
// agc-action/ member, a line each. The run's log keeps diag.MaxLints of
// them and says how many there were in all.
func TestAttackStripLintsBounded(t *testing.T) {
	const n = 5000
	rec := strings.Replace(okAnswer, `"verdict"`, `"agc-action/x":{},"verdict"`, 1)
	recs := make([]string, n)
	for i := range recs {
		recs[i] = strings.Replace(rec, `"id":"g"`, fmt.Sprintf(`"id":"g%d"`, i), 1)
	}
	c := New(nil)
	c.AddAGC("many.jsonl", []byte(strings.Join(recs, "\n")+"\n"), "")
	lines := c.Lint.Lines()
	if len(lines) != diag.MaxLints+1 {
		t.Fatalf("%d lint lines for %d answers that each bring an agc-action/ member, want %d", len(lines), n, diag.MaxLints+1)
	}
	if !strings.Contains(lines[0].String(), "agc-action/x") {
		t.Errorf("first line %q does not name the member", lines[0].String())
	}
	if want := fmt.Sprintf("%d more lint lines not shown (%d in all)", n-diag.MaxLints, n); !strings.HasPrefix(lines[len(lines)-1].String(), want) {
		t.Errorf("last line %q, want it to start %q", lines[len(lines)-1].String(), want)
	}
}
