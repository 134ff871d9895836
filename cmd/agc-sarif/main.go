// Command agc-sarif validates, renders and converts Agent Gate Contract
// responses and delivers them to GitHub. See the README.
//
// main only wires package cli to the process (arguments, standard streams,
// environment, exit code) and builds what the commands depend on (deps);
// every command lives in internal/cli, the Action in internal/action.
package main

import (
	"os"
	"runtime/debug"

	"github.com/agcgate/agc-action/internal/action"
	"github.com/agcgate/agc-action/internal/cli"
)

// version and commit are set at build time with
// -ldflags "-X main.version=... -X main.commit=..." (make build, GoReleaser).
var (
	version = "dev"
	commit  = ""
)

func main() {
	v := version
	if commit != "" {
		v += " (" + commit + ")"
	}
	os.Exit(cli.Main(deps(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv, v))
}

// deps are what the commands run that package cli does not import: the
// Action, for "agc-sarif action", and the process's runtime settings,
// which only main may change.
func deps() cli.Deps {
	return cli.Deps{Action: action.Main, Runtime: processRuntime{}}
}

// processRuntime is the cli.Runtime of the process: runtime/debug's
// settings.
type processRuntime struct{}

func (processRuntime) GCPercent(percent int) (restore func()) {
	old := debug.SetGCPercent(percent)
	return func() { debug.SetGCPercent(old) }
}

func (processRuntime) MemoryLimit(bytes int64) (restore func()) {
	old := debug.SetMemoryLimit(-1) // -1 reads it
	debug.SetMemoryLimit(min(old, bytes))
	return func() { debug.SetMemoryLimit(old) }
}
