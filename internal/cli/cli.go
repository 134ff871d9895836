// Package cli implements the agc-sarif command: the table of commands,
// their flags, and one file each (cmd_NAME.go). Every command is a function
// of its arguments, standard streams and environment (cmdenv.Env), so tests
// call it directly; cmd/agc-sarif only wires it to the process, building
// the Env. The Action is package internal/action, which this package does
// not import: main passes it in (Env.Action), and "agc-sarif action" only
// calls it.
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
func commands(e *Env) map[string]command {
	cmds := map[string]command{
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
	}
	if e.Action != nil {
		cmds["action"] = command{runAction, "the GitHub Action's entry point (inputs from INPUT_* variables)"}
	}
	cmds["completion"] = command{func(e *Env, args []string) int { return runCompletion(e, cmds, args) }, "print a shell completion script: bash, zsh or fish"}
	return cmds
}

// Main runs agc-sarif in e with args (without the program name) and
// returns the exit code. Help asked for is output, on stdout; a usage
// error is one or two lines on stderr, naming what is nearest to what was
// typed.
func Main(e *Env, args []string) int {
	if e.Getenv == nil {
		e.Getenv = func(string) string { return "" }
	}
	cmds := commands(e)
	switch {
	case len(args) == 0:
		usage(e.Stderr, cmds)
		return ExitUsage
	case args[0] == "help" && len(args) > 1:
		return runHelp(e, cmds, args[1:])
	case args[0] == "-h" || args[0] == "--help" || args[0] == "help":
		usage(e.Stdout, cmds)
		return ExitOK
	case args[0] == "--version" || args[0] == "-v":
		return runVersion(e, args[1:])
	}
	c, ok := cmds[args[0]]
	if !ok {
		return unknownCommand(e, cmds, args[0])
	}
	return c.run(e, args[1:])
}

// unknownCommand reports a command that is not in the table, with the
// nearest that is, and where the list is.
func unknownCommand(e *Env, cmds map[string]command, name string) int {
	msg := "agc-sarif: unknown command " + strconv.Quote(name)
	if n := nearest(name, commandNames(cmds)); n != "" {
		msg += "; did you mean " + n + "?"
	}
	_ = printLine(e.Stderr, msg)
	_ = printLine(e.Stderr, "run 'agc-sarif help' for the commands")
	return ExitUsage
}

func commandNames(cmds map[string]command) []string {
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "usage: agc-sarif COMMAND [flags] [FILE...]")
	fmt.Fprintln(w, "\ncommands:")
	for _, n := range commandNames(cmds) {
		fmt.Fprintf(w, "  %-12s %s\n", n, cmds[n].short)
	}
	fmt.Fprintln(w, "\nRun 'agc-sarif help COMMAND' (or 'agc-sarif COMMAND -h') for a command's flags; flags go before or after files, -- ends them. Exit codes: 0 ok, 1 rule broken or failing verdict, 2 usage or unreadable input.")
}

// flagOut is the output of a command's flag set: the help, asked for,
// goes to stdout; anything else the flag package writes, to stderr.
type flagOut struct {
	stdout, stderr io.Writer
	args           string // the usage line's arguments
}

func (o *flagOut) Write(p []byte) (int, error) { return o.stderr.Write(p) }

// newFlags returns a flag set that reports errors instead of exiting. Its
// Usage, called after a usage error, is one line pointing at the help.
func newFlags(e *Env, name, args string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	out := &flagOut{stdout: e.Stdout, stderr: e.Stderr, args: args}
	fs.SetOutput(out)
	fs.Usage = func() {
		_ = printLine(fs.Output(), "run 'agc-sarif help "+name+"' for usage")
	}
	return fs
}

// printHelp writes a command's usage line and its flags to w.
func printHelp(fs *flag.FlagSet, w io.Writer, args string) {
	fmt.Fprintf(w, "usage: agc-sarif %s %s\n", fs.Name(), args)
	out := fs.Output()
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(out)
}

// parseFlags parses args and maps -h and flag errors to exit codes. ok is
// false when the command should return code at once. -h prints the help
// on stdout. A flag error is one line on stderr, the flag spelled as the
// usage spells it (--name) and an unknown one with the nearest known,
// then the line pointing at the help. The flag package prints a bad
// argument as it is, and a glob in a workflow can pass a file name of the
// judged party's ("-x⏎::error::…") for a flag: its error line is printed
// through printLine instead.
func parseFlags(fs *flag.FlagSet, args []string) (code int, ok bool) {
	out, _ := fs.Output().(*flagOut) // newFlags made fs
	var held bytes.Buffer
	fs.SetOutput(&held)
	err := fs.Parse(args)
	fs.SetOutput(out)
	switch {
	case err == nil:
		return 0, true
	case errors.Is(err, flag.ErrHelp):
		printHelp(fs, out.stdout, out.args)
		return ExitOK, false
	}
	_ = printLine(out.stderr, "agc-sarif "+fs.Name()+": "+flagError(fs, err))
	fs.Usage()
	return ExitUsage, false
}

// flagError says what was wrong with the flags: the flag package's
// message with each flag spelled --name, and for an unknown flag the
// nearest defined one.
func flagError(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		name = strings.TrimPrefix(name, "-")
		msg = "unknown flag --" + name
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		if n := nearest(name, names); n != "" {
			msg += "; did you mean --" + n + "?"
		}
		return msg
	}
	if rest, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return "flag --" + rest + " needs an argument"
	}
	// invalid value "V" for flag -NAME: why; invalid boolean value "V" for -NAME: why
	for _, p := range []string{"invalid value ", "invalid boolean value "} {
		rest, ok := strings.CutPrefix(msg, p)
		if !ok {
			continue
		}
		q, err := strconv.QuotedPrefix(rest)
		if err != nil {
			break
		}
		after := rest[len(q):]
		for _, f := range []string{" for flag -", " for -"} {
			if name, ok := strings.CutPrefix(after, f); ok {
				return p + q + " for flag --" + name
			}
		}
	}
	return msg
}

// noArgs parses the flags of a command that takes no arguments; ok is
// false when the command should return code at once, as parseArgs's, or
// because an argument was given.
func noArgs(e *Env, fs *flag.FlagSet, args []string) (code int, ok bool) {
	pos, code, ok := parseArgs(fs, args)
	if ok && len(pos) > 0 {
		_ = printLine(e.Stderr, "agc-sarif "+fs.Name()+": takes no arguments, got "+strconv.Quote(pos[0]))
		fs.Usage()
		return ExitUsage, false
	}
	return code, ok
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
