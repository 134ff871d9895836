// Command agc-sarif validates, renders and converts Agent Gate Contract
// responses and delivers them to GitHub. See the README.
//
// main only wires package cli to the process (arguments, standard streams,
// environment, exit code); every command lives in internal/cli.
package main

import (
	"os"

	"github.com/agcgate/agc-action/internal/cli"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv, version))
}
