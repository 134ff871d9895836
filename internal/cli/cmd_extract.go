package cli

import (
	"fmt"

	"github.com/agcgate/agc-action/extract"
	"github.com/agcgate/agc-action/internal/cmdenv"
)

// maxMessage is the largest agent message extract reads. Parsing costs
// about 40 times the message in memory (goldmark's syntax tree), and a
// judgment agent's final message is far smaller than this.
const maxMessage = 8 << 20

// runExtract implements "agc-sarif extract [FILE]": print the one fenced agc
// block of a judgment agent's final message.
func runExtract(e *Env, args []string) int {
	fs := newFlags(e, "extract", "[FILE]")
	pos, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(pos) > 1 {
		fmt.Fprintf(e.Stderr, "agc-sarif extract: one FILE at most, got %d\n", len(pos))
		fs.Usage()
		return ExitUsage
	}
	name := "-"
	if len(pos) == 1 {
		name = pos[0]
	}
	msg, err := e.ReadInput(name, maxMessage)
	if err != nil {
		_ = printLine(e.Stderr, fmt.Sprintf("agc-sarif extract: %v", err))
		return ExitUsage
	}
	if len(msg) > maxMessage {
		_ = printLine(e.Stderr, fmt.Sprintf("agc-sarif extract: %s: larger than %d MiB, the most an agent's message may be", cmdenv.DisplayName(name), maxMessage>>20))
		return ExitUsage
	}
	return printBlock(e, cmdenv.DisplayName(name), msg)
}

// printBlock finds the block in msg and prints it, its lint or its error.
// A block that is JSON is printed as JSON, still read by render or
// validate at the other end of a pipe; any other content goes through
// writeOut as text (a ::stop-commands:: block under GitHub Actions).
func printBlock(e *Env, file string, msg []byte) int {
	b, lints, err := extract.Find(file, msg)
	if err != nil {
		printError(e, "extract", err)
		return ExitFail
	}
	printLints(e, lints) // at most three (extract.Find)
	if err := writeOut(e, b.Content, false); err != nil {
		_ = printLine(e.Stderr, fmt.Sprintf("agc-sarif extract: write: %v", err))
		return ExitUsage
	}
	return ExitOK
}
