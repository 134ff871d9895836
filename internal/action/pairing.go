package action

import (
	"fmt"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/validate"
)

// filePattern is one line of a file input (agc, sarif, and later diff): a
// glob, or an absolute path, optionally paired with the one gate whose
// answer it holds.
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
type filePattern struct {
	gate string // the gate the files answer; "" when unpaired
	glob string // the pattern, with "\=" read as "="
}

// parsePattern reads one line of a file input (already trimmed, not a
// comment); the error says what is wrong with the line.
func parsePattern(line string) (filePattern, error) {
	line = strings.TrimSpace(line)
	sep := separator(line)
	if sep < 0 {
		p := filePattern{glob: unescapeEq(line)}
		if p.glob == "" {
			return p, fmt.Errorf("line %q names no file", line)
		}
		return p, nil
	}
	p := filePattern{gate: strings.TrimSpace(line[:sep]), glob: unescapeEq(strings.TrimSpace(line[sep+1:]))}
	switch {
	case p.gate == "":
		return p, fmt.Errorf("line %q: no gate id before \"=\" (write a file name that holds \"=\" with \"\\=\")", line)
	case p.gate == validate.GateID:
		return p, fmt.Errorf("line %q: %s is the validator's own gate; no input answers for it", line, validate.GateID)
	case p.glob == "":
		return p, fmt.Errorf("line %q: no file after \"=\"", line)
	}
	if err := agc.CheckGateID(p.gate); err != nil {
		return p, fmt.Errorf("line %q: %v", line, err)
	}
	return p, nil
}

// String writes p as a line parsePattern reads back as p.
func (p filePattern) String() string {
	glob := strings.ReplaceAll(p.glob, "=", `\=`)
	if p.gate == "" {
		return glob
	}
	return p.gate + "=" + glob
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

// unescapeEq reads "\=" as "=".
func unescapeEq(s string) string { return strings.ReplaceAll(s, `\=`, "=") }

// parsePatterns reads the lines of file input name.
func parsePatterns(name string, ls []string) ([]filePattern, error) {
	out := make([]filePattern, 0, len(ls))
	for _, l := range ls {
		p, err := parsePattern(l)
		if err != nil {
			return nil, &inputError{name, err.Error()}
		}
		out = append(out, p)
	}
	return out, nil
}
