// Command agc-sarif validates, renders and converts Agent Gate Contract
// responses and delivers them to GitHub. See the README.
//
// main only wires package cli to the process (arguments, standard streams,
// environment, exit code) and builds what the commands depend on (deps);
// every command lives in internal/cli, the Action in internal/action.
package main

import (
	"os"

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
// Action, for "agc-sarif action".
func deps() cli.Deps {
	return cli.Deps{Action: action.Main}
}
