package extract

import (
	"fmt"
	"strings"
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

// Lint is advisory: the caller prints it, the exit code is unaffected.
type Lint struct {
	Line    int
	Message string
}

// Error kinds.
const (
	KindNone         = "none"
	KindSeveral      = "several"
	KindUnterminated = "unterminated"
)

// Error says why no single block could be taken. Lines[0] is the line to
// point at: for "none", a line that looks like an agc fence but is not one
// (or else the message's last line); for "several", every opening line; for
// "unterminated", the opening line.
type Error struct {
	Kind  string
	Lines []int
	Msg   string
}

func (e *Error) Error() string {
	if len(e.Lines) == 0 {
		return e.Msg
	}
	return fmt.Sprintf("line %d: %s", e.Lines[0], e.Msg)
}

// Find returns the one fenced code block whose info string is "agc".
func Find(message []byte) (Block, []Lint, error) {
	s := string(message)
	var found agcFences
	var h hints
	p := &parser{onFence: found.add, onLine: h.observe}
	p.scan(s)
	if err := found.check(&h, p.lineNo); err != nil {
		return Block{}, nil, err
	}
	f := found.first
	b := Block{Content: f.Content, StartLine: f.Start, EndLine: f.End}
	return b, lints(s, f), nil
}

// agcFences collects the agc blocks of a message: the first whole, and the
// opening line of every one.
type agcFences struct {
	first  fence
	starts []int
}

func (a *agcFences) add(f fence) {
	if f.Lang != agcLang {
		return
	}
	if len(a.starts) == 0 {
		a.first = f
	}
	a.starts = append(a.starts, f.Start)
}

// check turns the agc fences found into an error unless there is exactly
// one, closed.
func (a *agcFences) check(h *hints, lastLine int) *Error {
	switch {
	case len(a.starts) == 0:
		return noneError(h, lastLine)
	case len(a.starts) > 1:
		return severalError(a.starts)
	case !a.first.Closed:
		return unterminatedError(a.first)
	}
	return nil
}

func noneError(h *hints, lastLine int) *Error {
	const msg = "no fenced code block with info string \"agc\": a judgment agent ends its final message with exactly one"
	if h.line > 0 {
		return &Error{Kind: KindNone, Lines: []int{h.line}, Msg: msg + "; this line looks like one but " + h.why}
	}
	return &Error{Kind: KindNone, Lines: []int{max(lastLine, 1)}, Msg: msg}
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
