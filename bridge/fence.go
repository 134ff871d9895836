package bridge

import (
	"fmt"
	"strings"

	"github.com/agcgate/agc-action/diag"
)

// contractInfo is the info string of the agent-protocol block.
const contractInfo = "json:contract"

// fenced is one fenced code block of a message.
type fenced struct {
	start, end int // 1-based lines of the opening and closing fence
	closed     bool
	content    string
}

// contractBlocks returns the fenced code blocks of message whose info
// string's first word is exactly "json:contract", and the number of the last
// line that is not blank.
//
// It follows CommonMark's rules for fences at the top level of a document:
// a run of three or more backticks or tildes indented at most three spaces
// opens a block (a backtick fence's info string may not hold a backtick); a
// run of the same character, at least as long, indented at most three
// spaces and followed only by blanks closes it; content lines lose up to as
// many leading spaces as the opening fence had. Text inside any fenced block
// is content, never a fence, so a json:contract example quoted inside a
// ```markdown block is not taken. Fences nested in block quotes or list
// items are not recognised (package extract does that for agc blocks).
func contractBlocks(message string) (blocks []fenced, lastText int) {
	var open *fenced
	var ch byte
	var n, indent int
	var content strings.Builder
	for i, line := range splitLines(message) {
		no := i + 1
		if strings.TrimSpace(line) != "" {
			lastText = no
		}
		if open == nil {
			c, l, ind, info := openFence(line)
			if l == 0 {
				continue
			}
			ch, n, indent = c, l, ind
			f := fenced{start: no}
			if first(info) == contractInfo {
				open = &f
			} else {
				open = &fenced{start: -no} // a fence of another language
			}
			content.Reset()
			continue
		}
		if closes(line, ch, n) {
			if open.start > 0 {
				open.end, open.closed, open.content = no, true, content.String()
				blocks = append(blocks, *open)
			}
			open = nil
			continue
		}
		content.WriteString(dedent(line, indent))
		content.WriteByte('\n')
	}
	if open != nil && open.start > 0 {
		open.content = content.String()
		blocks = append(blocks, *open)
	}
	return blocks, lastText
}

// splitLines splits on LF, CRLF or a lone CR.
func splitLines(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	s = strings.TrimSuffix(s, "\n")
	return strings.Split(s, "\n")
}

// openFence recognises an opening fence: its character, length (0 if the
// line is not one), indentation and info string.
func openFence(line string) (ch byte, n, indent int, info string) {
	indent = leadingSpaces(line)
	if indent > 3 {
		return 0, 0, 0, ""
	}
	rest := line[indent:]
	if rest == "" || (rest[0] != '`' && rest[0] != '~') {
		return 0, 0, 0, ""
	}
	ch = rest[0]
	n = run(rest, ch)
	if n < 3 {
		return 0, 0, 0, ""
	}
	info = strings.Trim(rest[n:], " \t")
	if ch == '`' && strings.ContainsRune(info, '`') {
		return 0, 0, 0, ""
	}
	return ch, n, indent, info
}

func closes(line string, ch byte, n int) bool {
	ind := leadingSpaces(line)
	if ind > 3 {
		return false
	}
	rest := line[ind:]
	k := run(rest, ch)
	return k >= n && strings.Trim(rest[k:], " \t") == ""
}

func leadingSpaces(s string) int {
	i := 0
	for i < len(s) && s[i] == ' ' {
		i++
	}
	return i
}

func run(s string, ch byte) int {
	i := 0
	for i < len(s) && s[i] == ch {
		i++
	}
	return i
}

func first(info string) string {
	if i := strings.IndexAny(info, " \t"); i >= 0 {
		return info[:i]
	}
	return info
}

func dedent(line string, indent int) string {
	k := min(leadingSpaces(line), indent)
	return line[k:]
}

// findContract returns the one json:contract block of message, with lint
// when prose follows it, or an error naming the lines at fault.
func findContract(file string, message []byte) (fenced, []diag.Lint, error) {
	blocks, last := contractBlocks(string(message))
	switch {
	case len(blocks) == 0:
		return fenced{}, nil, &diag.Error{Place: diag.Place{File: file, Line: max(last, 1)}, Msg: "no fenced code block with info string \"json:contract\": agent-protocol says every response MUST end with a single fenced json:contract block"}
	case len(blocks) > 1:
		lines := make([]string, len(blocks))
		for i, b := range blocks {
			lines[i] = fmt.Sprint(b.start)
		}
		return fenced{}, nil, &diag.Error{Place: diag.Place{File: file, Line: blocks[len(blocks)-1].start},
			Msg: fmt.Sprintf("%d fenced json:contract blocks, opened at lines %s: agent-protocol allows a single one", len(blocks), strings.Join(lines, ", "))}
	case !blocks[0].closed:
		return fenced{}, nil, &diag.Error{Place: diag.Place{File: file, Line: blocks[0].start}, Msg: "the json:contract block opened here is not closed before the end of the message"}
	}
	b := blocks[0]
	var lints []diag.Lint
	if last > b.end {
		lints = append(lints, diag.Lint{Place: diag.Place{File: file, Line: b.end + 1}, Message: "text follows the json:contract block; agent-protocol says every response MUST end with it"})
	}
	return b, lints, nil
}
