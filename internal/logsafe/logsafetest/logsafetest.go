// Package logsafetest reads a step's output as the GitHub Actions runner
// does (actions/runner, ActionCommandManager and ActionCommand) and
// reports the lines it would take as commands that agc-action did not
// write. Tests of every command that prints untrusted text use it.
package logsafetest

import (
	"regexp"
	"strings"
	"unicode"
)

// registered are the command names the runner knows (compared ignoring
// case), and stop-commands.
var registered = map[string]bool{
	"add-mask": true, "add-matcher": true, "add-path": true, "debug": true, "echo": true, "endgroup": true,
	"error": true, "group": true, "notice": true, "remove-matcher": true, "save-state": true, "set-env": true,
	"set-output": true, "stop-commands": true, "warning": true, "internal-set-repo-path": true,
}

var ourToken = regexp.MustCompile(`^[0-9a-f]{32}$`)

// command is one parsed command line.
type command struct {
	name  string
	props map[string]string
	data  string
}

// parseV2 parses "::name k=v,…::data" after leading white space (C#'s
// TrimStart), as ActionCommand.TryParseV2 does; ok is false when the line
// does not start with "::" or has no second "::".
func parseV2(line string) (command, bool) {
	m := strings.TrimLeftFunc(line, unicode.IsSpace)
	if !strings.HasPrefix(m, "::") {
		return command{}, false
	}
	end := strings.Index(m[2:], "::")
	if end < 0 {
		return command{}, false
	}
	info := m[2 : 2+end]
	c := command{props: map[string]string{}, data: m[2+end+2:]}
	name, props, _ := strings.Cut(info, " ")
	c.name = name
	for _, p := range strings.Split(props, ",") {
		if k, v, ok := strings.Cut(strings.TrimSpace(p), "="); ok && k != "" {
			c.props[k] = v
		}
	}
	return c, true
}

// parseLegacy finds "##[name …]data" anywhere in line, as
// ActionCommand.TryParse does.
func parseLegacy(line string) (command, bool) {
	i := strings.Index(line, "##[")
	if i < 0 {
		return command{}, false
	}
	rb := strings.IndexByte(line[i:], ']')
	if rb < 0 {
		return command{}, false
	}
	info := line[i+3 : i+rb]
	name, _, _ := strings.Cut(info, " ")
	return command{name: name, data: line[i+rb+1:]}, true
}

// lines splits out where the runner does: at "\r\n", "\n" and "\r".
func lines(out string) []string {
	out = strings.ReplaceAll(out, "\r\n", "\n")
	return strings.FieldsFunc(strings.ReplaceAll(out, "\r", "\n"), func(r rune) bool { return r == '\n' })
}

// Foreign returns every line of out (standard output and standard error
// alike) that the runner would take as a command and that is not one of
// ours, and a line saying so when a block we opened is never closed.
//
// Ours are: ::error, ::warning and ::notice lines that carry a title
// property (every command agc-action writes sets one), a
// ::stop-commands:: with a 32-hex-digit token (logsafe.Block), and the
// ::TOKEN:: that resumes it. While such a block is open, the runner
// ignores every line but the resume, and so does Foreign. Foreign is
// stricter than the runner: any line starting with "::" after white space
// that is not ours counts, registered name or not, and so does any "##["
// in a line that is not one of ours.
func Foreign(out string) []string {
	var bad []string
	stop := ""
	for _, l := range lines(out) {
		if stop != "" {
			if resumes(l, stop) {
				stop = ""
			}
			continue
		}
		c, v2 := parseV2(l)
		switch {
		case v2 && ours(c):
			if c.name == "stop-commands" {
				stop = c.data
			}
		case v2:
			bad = append(bad, l)
		case strings.Contains(l, "##["):
			bad = append(bad, l)
		}
	}
	if stop != "" {
		bad = append(bad, "(the block stopped with token "+stop+" is never resumed: our own later commands would be ignored)")
	}
	return bad
}

func ours(c command) bool {
	switch c.name {
	case "error", "warning", "notice":
		return c.props["title"] != ""
	case "stop-commands":
		return ourToken.MatchString(c.data)
	}
	return false
}

// resumes: the runner, stopped with token, takes line as the resume
// command. The token is registered while stopped, names compare ignoring
// case, and the legacy form is tried only when the line is no registered
// command of the "::" form.
func resumes(line, token string) bool {
	if c, ok := parseV2(line); ok {
		if strings.EqualFold(c.name, token) {
			return true
		}
		if registered[strings.ToLower(c.name)] {
			return false
		}
	}
	c, ok := parseLegacy(line)
	return ok && strings.EqualFold(c.name, token)
}
