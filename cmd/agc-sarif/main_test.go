package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/internal/cli"
)

// TestMainWiresTheAction: package cli does not import the Action; main
// passes it in (deps), and with it "agc-sarif action" is a command the
// usage lists, help describes, and that runs the Action: with no inputs
// it stops with the Action's own usage error.
func TestMainWiresTheAction(t *testing.T) {
	run := func(getenv func(string) string, args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := cli.Main(deps(), args, strings.NewReader(""), &out, &errb, getenv, "test")
		return code, out.String(), errb.String()
	}
	none := func(string) string { return "" }
	if code, out, _ := run(none, "help"); code != cli.ExitOK || !strings.Contains(out, "  action ") {
		t.Errorf("help: exit %d, no action command:\n%s", code, out)
	}
	if code, out, _ := run(none, "help", "action"); code != cli.ExitOK || !strings.HasPrefix(out, "usage: agc-sarif action") {
		t.Errorf("help action: exit %d:\n%s", code, out)
	}
	code, out, errs := run(none, "action")
	if code != cli.ExitUsage || !strings.Contains(out+errs, "::error") {
		t.Errorf("action without inputs: exit %d, want the Action's error:\n%s%s", code, out, errs)
	}
	if code, _, errs := run(none, "action", "stray"); code != cli.ExitUsage || !strings.Contains(errs, "takes no arguments") {
		t.Errorf("action stray: exit %d:\n%s", code, errs)
	}
}
