package cli

import (
	"strings"
	"testing"
)

// TestEveryCommandAnswersHelp: every command of the table is listed in
// the usage and runs: "agc-sarif NAME -h" exits 0 with the command's usage
// on stdout and nothing on stderr (version, which takes no flags, prints
// the version).
func TestEveryCommandAnswersHelp(t *testing.T) {
	_, usage, _ := run(t, "", "--help")
	for name := range commands(testEnv(nil, nil, nil, nil)) {
		if !strings.Contains(usage, "  "+name+" ") {
			t.Errorf("usage does not list %q:\n%s", name, usage)
		}
		code, out, errs := run(t, "", name, "-h")
		helped := strings.HasPrefix(out, "usage: agc-sarif "+name+" ") || strings.HasPrefix(out, "agc-sarif ")
		if code != ExitOK || !helped || errs != "" {
			t.Errorf("%s -h: exit %d, stdout %q, stderr %q; want 0 and its usage", name, code, out, errs)
		}
	}
}

func TestUnknownCommand(t *testing.T) {
	code, _, errs := run(t, "", "frobnicate")
	if code != ExitUsage || !strings.Contains(errs, `unknown command "frobnicate"`) {
		t.Errorf("exit %d: %s", code, errs)
	}
	if code, _, _ := run(t, ""); code != ExitUsage {
		t.Errorf("no command: exit %d", code)
	}
}
