// Package cli implements the agc-sarif command: the table of commands,
// their flags, and one file each (cmd_NAME.go). Every command is a function
// of its arguments, standard streams and environment (cmdenv.Env), so tests
// call it directly; cmd/agc-sarif only wires it to the process. The Action
// is package internal/action; "agc-sarif action" only calls it.
//
// Commands do I/O: the files they are named, standard streams, the
// environment, git (fingerprint, carry) and GitHub (github, carry --github).
package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/agcgate/agc-action/internal/cmdenv"
)

// Exit codes, the same for every command (README, "Exit codes").
const (
	ExitOK    = cmdenv.ExitOK    // success; lint may have been printed
	ExitFail  = cmdenv.ExitFail  // the input breaks a rule, or the gate's verdict fails
	ExitUsage = cmdenv.ExitUsage // bad usage, or an input that cannot be read at all
)

// Env is what a command may touch of the outside world.
type Env = cmdenv.Env

// command is one agc-sarif command: the function that runs it and the line
// the usage shows.
type command struct {
	run   func(e *Env, args []string) int
	short string
}

// commands is the table of every command; Main runs from it and the usage
// lists it (TestEveryCommandAnswersHelp runs each).
func commands() map[string]command {
	return map[string]command{
		"action":      {runAction, "the GitHub Action's entry point (inputs from INPUT_* variables)"},
		"convert":     {runConvert, "convert between AGC, SARIF 2.1.0, rdjson, fixers' diffs, bridged gate formats and readable text"},
		"carry":       {runCarry, "carry a verdict to a commit whose scoped content is unchanged"},
		"fingerprint": {runFingerprint, "compute a scoped subject fingerprint of a commit's tree"},
		"github":      {runGithub, "post responses to GitHub: code scanning, PR review, check runs, statuses"},
		"hook":        {runHook, "answer Claude Code hooks with an AGC gate's verdict"},
		"extract":     {runExtract, "print the one fenced agc block of an agent's final message"},
		"render":      {runRender, "render a response for people (spec §12) as text or Markdown"},
		"schema":      {runSchema, "print the AGC JSON Schema (draft 2020-12)"},
		"validate":    {runValidate, "check AGC responses against the schema and every rule of the spec"},
		"version":     {runVersion, "print the version and the commit it was built from (also --version, -v)"},
		"completion":  {runCompletion, "print a shell completion script: bash, zsh or fish"},
	}
}

// Main runs agc-sarif with args (without the program name) and returns the
// exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string, version string) int {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	e := &Env{Stdin: stdin, Stdout: stdout, Stderr: stderr, Getenv: getenv, Version: version}
	cmds := commands()
	switch {
	case len(args) == 0:
		usage(e.Stderr, cmds)
		return ExitUsage
	case args[0] == "help" && len(args) > 1:
		return runHelp(e, cmds, args[1:])
	case args[0] == "-h" || args[0] == "--help" || args[0] == "help":
		usage(e.Stderr, cmds)
		return ExitOK
	case args[0] == "--version" || args[0] == "-v":
		return runVersion(e, args[1:])
	}
	c, ok := cmds[args[0]]
	if !ok {
		_ = printLine(e.Stderr, "agc-sarif: unknown command "+strconv.Quote(args[0]))
		usage(e.Stderr, cmds)
		return ExitUsage
	}
	return c.run(e, args[1:])
}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "usage: agc-sarif COMMAND [flags] [FILE...]")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-12s %s\n", n, cmds[n].short)
	}
	fmt.Fprintln(w, "\nRun 'agc-sarif help COMMAND' (or 'agc-sarif COMMAND -h') for a command's flags; flags go before or after files, -- ends them. Exit codes: 0 ok, 1 rule broken or failing verdict, 2 usage or unreadable input.")
}

// newFlags returns a flag set that reports errors instead of exiting.
func newFlags(e *Env, name, args string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: agc-sarif %s %s\n", name, args)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args and maps -h and flag errors to exit codes. ok is
// false when the command should return code at once. The flag package
// prints a bad argument as it is, and a glob in a workflow can pass a file
// name of the judged party's ("-x⏎::error::…") for a flag: its error line
// is printed through printLine instead, then the usage.
func parseFlags(fs *flag.FlagSet, args []string) (code int, ok bool) {
	out := fs.Output()
	var held bytes.Buffer
	fs.SetOutput(&held)
	err := fs.Parse(args)
	fs.SetOutput(out)
	switch {
	case err == nil:
		return 0, true
	case errors.Is(err, flag.ErrHelp):
		_, _ = out.Write(held.Bytes()) // the help: ours alone
		return ExitOK, false
	}
	_ = printLine(out, err.Error())
	fs.Usage()
	return ExitUsage, false
}

// parseArgs parses flags that may stand before, between or after the
// positional arguments (GNU style; "--" ends the flags) and returns the
// positional ones.
func parseArgs(fs *flag.FlagSet, args []string) (pos []string, code int, ok bool) {
	for {
		if code, ok := parseFlags(fs, args); !ok {
			return nil, code, false
		}
		rest := fs.Args()
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			// flag.Parse consumed the "--" that ends the flags.
			return append(pos, rest...), 0, true
		}
		args = rest
		if len(args) == 0 {
			return pos, 0, true
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), 0, true
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// readInput reads a named input, "-" being standard input, refusing more
// than max bytes (max <= 0: no limit): Env.ReadInput.
func readInput(e *Env, name string, max int64) ([]byte, error) { return e.ReadInput(name, max) }

// displayName is how an input is named in messages.
func displayName(name string) string { return cmdenv.DisplayName(name) }

// enumFlag is a flag.Value restricted to a fixed set of words.
type enumFlag struct {
	value   string
	allowed []string
}

func newEnum(def string, allowed ...string) *enumFlag {
	return &enumFlag{value: def, allowed: allowed}
}

func (f *enumFlag) String() string { return f.value }

func (f *enumFlag) Set(s string) error {
	for _, a := range f.allowed {
		if s == a {
			f.value = s
			return nil
		}
	}
	return fmt.Errorf("must be one of %s", strings.Join(f.allowed, ", "))
}
