package decide

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agcgate/agc-action/agc"
)

// The form of a decision: one line of a pull request comment,
//
//	/agc decide GATE OPTION: REASON
//
// GATE is a gate id (agc.CheckGateID), OPTION is "accept", "block" or an
// option the latest round's decide remedy lists (it holds no ":"), REASON
// is the rest of the line and may not be empty.
const (
	// Command begins a decision line.
	Command = "/agc decide"
	// MaxOption and MaxReason bound an option and a reason, in characters.
	MaxOption = 100
	MaxReason = 1000
)

// Usage is the form, as replies and errors show it.
const Usage = Command + " GATE OPTION: REASON"

// Decision is what a decision line says.
type Decision struct {
	Gate   string
	Option string // trimmed, inner runs of blanks as one space
	Reason string // trimmed
	Line   int    // the line of the comment it is on, from 1
}

// SyntaxError is a comment that holds a decision line that is not one.
type SyntaxError struct {
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d: %s (the form is %q)", e.Line, e.Msg, Usage)
}

// Parse finds the decision in a comment body. A line counts when it starts
// (after at most three spaces) with "/agc decide" followed by a blank or
// its end, outside fenced code blocks; a quoted line ("> /agc …") does not.
// It returns found false and no error when no line counts: the comment is
// not a decision, and nothing is said. A comment with more than one such
// line, or one that does not follow the form, is a *SyntaxError.
func Parse(body string) (d Decision, found bool, err error) {
	if !utf8.ValidString(body) {
		body = strings.ToValidUTF8(body, "\uFFFD")
	}
	var fence string
	for i, line := range strings.Split(body, "\n") {
		line = strings.TrimSuffix(line, "\r")
		trimmed := strings.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		if fence != "" {
			if closesFence(trimmed, fence) && indent <= 3 {
				fence = ""
			}
			continue
		}
		if f := opensFence(trimmed); f != "" && indent <= 3 {
			fence = f
			continue
		}
		rest, ok := commandLine(trimmed)
		if !ok || indent > 3 {
			continue
		}
		if found {
			return Decision{}, true, &SyntaxError{Line: i + 1, Msg: fmt.Sprintf("a second decision (the first is on line %d): one decision per comment", d.Line)}
		}
		found = true
		if d, err = parseLine(rest, i+1); err != nil {
			return Decision{}, true, err
		}
	}
	return d, found, nil
}

// commandLine returns what follows "/agc decide" on a line that starts
// with it.
func commandLine(s string) (string, bool) {
	rest, ok := strings.CutPrefix(s, Command)
	if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return "", false
	}
	return rest, true
}

func parseLine(rest string, line int) (Decision, error) {
	bad := func(format string, a ...any) (Decision, error) {
		return Decision{}, &SyntaxError{Line: line, Msg: fmt.Sprintf(format, a...)}
	}
	rest = strings.TrimLeft(rest, " \t")
	gate, rest, _ := strings.Cut(strings.ReplaceAll(rest, "\t", " "), " ")
	if gate == "" {
		return bad("no gate")
	}
	if err := agc.CheckGateID(gate); err != nil {
		return bad("%v", err)
	}
	option, reason, ok := strings.Cut(rest, ":")
	option = strings.Join(strings.Fields(option), " ")
	reason = strings.TrimSpace(reason)
	switch {
	case option == "":
		return bad("no option after the gate")
	case !ok || reason == "":
		return bad("no reason: write it after the option and a colon")
	case utf8.RuneCountInString(option) > MaxOption:
		return bad("the option is longer than %d characters", MaxOption)
	case utf8.RuneCountInString(reason) > MaxReason:
		return bad("the reason is longer than %d characters", MaxReason)
	case strings.IndexFunc(option+reason, isControl) >= 0:
		return bad("a control character in the option or the reason")
	}
	return Decision{Gate: gate, Option: option, Reason: reason, Line: line}, nil
}

func isControl(r rune) bool { return r != '\t' && unicode.IsControl(r) }

// opensFence returns the run of backticks or tildes a fenced code block
// opens with, or "" (CommonMark: at least three).
func opensFence(s string) string {
	for _, c := range []string{"`", "~"} {
		n := len(s) - len(strings.TrimLeft(s, c))
		if n >= 3 && !(c == "`" && strings.Contains(s[n:], "`")) {
			return s[:n]
		}
	}
	return ""
}

// closesFence reports whether s closes a block opened with fence: a run of
// the same character at least as long, and nothing but blanks after it.
func closesFence(s, fence string) bool {
	n := len(s) - len(strings.TrimLeft(s, fence[:1]))
	return n >= len(fence) && strings.TrimRight(s[n:], " \t") == ""
}
