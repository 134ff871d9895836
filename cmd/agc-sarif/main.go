// Command agc-sarif validates, renders and converts Agent Gate Contract
// responses and delivers them to GitHub. See the README.
//
// main only wires package cli to the process (arguments, standard streams,
// environment, exit code) and builds what the commands depend on (env);
// every command lives in internal/cli, the Action in internal/action.
package main

import (
	"os"
	"runtime/debug"

	"github.com/agcgate/agc-action/internal/action"
	"github.com/agcgate/agc-action/internal/cli"
	"github.com/agcgate/agc-action/internal/cmdenv"
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
	os.Exit(cli.Main(env(v), os.Args[1:]))
}

// env is the process as the commands and the Action see it: its streams
// and environment, and what package cli does not import: the Action, for
// "agc-sarif action", and the process's runtime settings, which only main
// may change.
func env(version string) *cmdenv.Env {
	return &cmdenv.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Environ: os.Environ,
		Version: version, Action: action.Main, Runtime: processRuntime{}}
}

// processRuntime is the cmdenv.Runtime of the process: runtime/debug's
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
