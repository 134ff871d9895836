package main

import (
	"bytes"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/internal/cli"
)

// TestMainWiresTheAction: package cli does not import the Action; main
// passes it in (env), and with it "agc-sarif action" is a command the
// usage lists, help describes, and that runs the Action: with no inputs
// it stops with the Action's own usage error.
func TestMainWiresTheAction(t *testing.T) {
	run := func(getenv func(string) string, args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		e := env("test")
		e.Stdin, e.Stdout, e.Stderr, e.Getenv = strings.NewReader(""), &out, &errb, getenv
		code := cli.Main(e, args)
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

// TestProcessRuntimeSetsAndRestores: main passes the commands the
// process's runtime settings (runtime/debug): the collector's target and
// a memory limit that is only ever lowered, each restored after.
func TestProcessRuntimeSetsAndRestores(t *testing.T) {
	rt := env("test").Runtime
	if rt == nil {
		t.Fatal("env().Runtime is nil: the commands would tune nothing")
	}
	gc := debug.SetGCPercent(-1)
	debug.SetGCPercent(gc)
	restore := rt.GCPercent(gc + 300)
	if got := debug.SetGCPercent(gc + 300); got != gc+300 {
		t.Errorf("GCPercent set %d, want %d", got, gc+300)
	}
	restore()
	if got := debug.SetGCPercent(gc); got != gc {
		t.Errorf("restored GCPercent %d, want %d", got, gc)
	}

	limit := debug.SetMemoryLimit(-1)
	for _, ask := range []int64{limit / 2, limit} {
		restore := rt.MemoryLimit(ask)
		if got := debug.SetMemoryLimit(-1); got != min(limit, ask) {
			t.Errorf("MemoryLimit(%d) set %d, want %d", ask, got, min(limit, ask))
		}
		restore()
		if got := debug.SetMemoryLimit(-1); got != limit {
			t.Errorf("restored memory limit %d, want %d", got, limit)
		}
	}
}
