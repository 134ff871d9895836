package extract

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/agcgate/agc-action/diag"
)

// Block is the one agc block found in a message.
type Block struct {
	// Content is the block's content, exactly as between the fences: each
	// line without the container markers and up to the opening fence's
	// indentation (CommonMark), every line ended by "\n".
	Content   []byte
	StartLine int // 1-based line of the opening fence
	EndLine   int // 1-based line of the closing fence
}

// Error kinds.
const (
	KindNone         = "none"
	KindSeveral      = "several"
	KindUnterminated = "unterminated"
)

// Error says why no single block could be taken. Its place is the message's
// file and Lines[0], the line to point at: for "none", a line that looks
// like an agc fence but is not one (or else the message's last line); for
// "several", every opening line; for "unterminated", the opening line.
type Error struct {
	diag.Place
	Kind  string
	Lines []int
	Msg   string
}

func (e *Error) Error() string { return e.Place.Text(e.Msg) }

// Find returns the one fenced code block whose info string is "agc" in
// message, read from file (the name errors and lint give). Lint is advice:
// the caller prints it, and the exit code is unaffected.
func Find(file string, message []byte) (Block, []diag.Lint, error) {
	d := parse(message)
	var agcs []fence
	for _, f := range d.fences {
		if f.Lang == agcLang {
			agcs = append(agcs, f)
		}
	}
	switch {
	case len(agcs) == 0:
		return Block{}, nil, in(file, noneError(d))
	case len(agcs) > 1:
		starts := make([]int, len(agcs))
		for i, f := range agcs {
			starts[i] = f.Start
		}
		return Block{}, nil, in(file, severalError(starts))
	case !agcs[0].Closed:
		return Block{}, nil, in(file, unterminatedError(agcs[0]))
	}
	f := agcs[0]
	b := Block{Content: f.content(d.src), StartLine: f.Start, EndLine: f.End}
	return b, lints(file, message, b, f.Nested), nil
}

// in places e at its first line of file.
func in(file string, e *Error) *Error {
	e.Place = diag.Place{File: file, Line: e.Lines[0]}
	return e
}

func noneError(d *doc) *Error {
	const msg = "no fenced code block with info string \"agc\": a judgment agent ends its final message with exactly one"
	if line, why := d.hint(); line > 0 {
		return &Error{Kind: KindNone, Lines: []int{line}, Msg: msg + "; this line looks like one but " + why}
	}
	if f, ok := d.answerFencedAsJSON(); ok {
		info := "with info string " + f.Lang
		if f.Lang == "" {
			info = "with no info string"
		}
		return &Error{Kind: KindNone, Lines: []int{f.Start}, Msg: fmt.Sprintf("found a fenced block %s at line %d; an AGC answer is fenced ```agc (%s)", info, f.Start, msg)}
	}
	return &Error{Kind: KindNone, Lines: []int{max(d.src.nLines(), 1)}, Msg: msg}
}

// answerFencedAsJSON is the first fenced block whose info string is json
// (in any case) or empty and whose content looks like an AGC answer: a
// JSON object or array naming "agc", or "gate" and "verdict". An agent
// that fenced its answer so is told which block it meant.
func (d *doc) answerFencedAsJSON() (fence, bool) {
	for _, f := range d.fences {
		if f.Lang != "" && !strings.EqualFold(f.Lang, "json") {
			continue
		}
		c := bytes.TrimSpace(f.content(d.src))
		if len(c) == 0 || (c[0] != '{' && c[0] != '[') {
			continue
		}
		if bytes.Contains(c, []byte(`"agc"`)) || bytes.Contains(c, []byte(`"gate"`)) && bytes.Contains(c, []byte(`"verdict"`)) {
			return f, true
		}
	}
	return fence{}, false
}

func severalError(starts []int) *Error {
	shown := make([]string, 0, 10)
	for _, l := range starts[:min(len(starts), cap(shown))] {
		shown = append(shown, fmt.Sprint(l))
	}
	list := strings.Join(shown, ", ")
	if len(starts) > len(shown) {
		list += fmt.Sprintf(" and %d more", len(starts)-len(shown))
	}
	return &Error{Kind: KindSeveral, Lines: starts,
		Msg: fmt.Sprintf("%d fenced agc blocks, opened at lines %s: the message must end with exactly one", len(starts), list)}
}

func unterminatedError(f fence) *Error {
	where := "before the end of the message"
	if !f.AtEOF {
		where = fmt.Sprintf("before its block quote or list item ends after line %d", f.End)
	}
	return &Error{Kind: KindUnterminated, Lines: []int{f.Start},
		Msg: "the agc block opened here is not closed " + where + ": end it with a fence of the same character, at least as long as the opening one"}
}
