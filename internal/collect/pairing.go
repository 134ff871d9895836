package collect

import (
	"fmt"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/validate"
)

// Pattern is one input line of the Action (agc, sarif, diff) or one file
// argument of agc-sarif github: a glob, or a file name, optionally paired
// with the one gate whose answer it holds.
//
//	line    = [ gate-id "=" ] pattern
//	pattern = a doublestar glob relative to the workspace, or an absolute path
//
// The line is split at its first "=" that is not written "\=": what stands
// left of it, trimmed, is a gate id (agc.CheckGateID, and not
// agc-validate), what stands right, trimmed, the pattern. "\=" stands for
// "=" anywhere in the line, so a pattern that contains "=" is written with
// "\=" when the line is not paired (a paired pattern may also hold a bare
// "="). A line without "=" is unpaired.
type Pattern struct {
	Gate string // the gate the files answer; "" when unpaired
	Glob string // the pattern, with "\=" read as "="
}

// ParsePattern reads one line (not a comment); the error says what is
// wrong with the line.
func ParsePattern(line string) (Pattern, error) {
	line = strings.TrimSpace(line)
	sep := separator(line)
	if sep < 0 {
		p := Pattern{Glob: unescapeEq(line)}
		if p.Glob == "" {
			return p, fmt.Errorf("line %q names no file", line)
		}
		return p, nil
	}
	p := Pattern{Gate: strings.TrimSpace(line[:sep]), Glob: unescapeEq(strings.TrimSpace(line[sep+1:]))}
	switch {
	case p.Gate == "":
		return p, fmt.Errorf("line %q: no gate id before \"=\" (write a file name that holds \"=\" with \"\\=\")", line)
	case p.Gate == validate.GateID:
		return p, fmt.Errorf("line %q: %s is the validator's own gate; no input answers for it", line, validate.GateID)
	case p.Glob == "":
		return p, fmt.Errorf("line %q: no file after \"=\"", line)
	}
	if err := agc.CheckGateID(p.Gate); err != nil {
		return p, fmt.Errorf("line %q: %v", line, err)
	}
	return p, nil
}

// ParseArg reads a file argument of agc-sarif github as ParsePattern
// reads a line; an argument ParsePattern refuses is a file name as it is
// (./a=b.json, or - for stdin).
func ParseArg(arg string) Pattern {
	if p, err := ParsePattern(arg); err == nil {
		return p
	}
	return Pattern{Glob: arg}
}

// String writes p as a line ParsePattern reads back as p.
func (p Pattern) String() string {
	glob := strings.ReplaceAll(p.Glob, "=", `\=`)
	if p.Gate == "" {
		return glob
	}
	return p.Gate + "=" + glob
}

// separator is the index of the first "=" not written "\=", or -1.
func separator(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '=' && (i == 0 || s[i-1] != '\\') {
			return i
		}
	}
	return -1
}

func unescapeEq(s string) string { return strings.ReplaceAll(s, `\=`, "=") }
