package review

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/agcgate/agc-action/agc"
)

// Change is a patch remedy's edit resolved against the file at the head
// commit: whole head lines Start..End (1-based) become New. Old and New hold
// whole lines with their newlines (the last may lack one at end of file).
// CRLF is set when the file's line endings are CRLF (its first line break
// is), so a carriage return before a newline is part of them.
type Change struct {
	Path       string
	Start, End int
	Old, New   string
	CRLF       bool
}

// ResolveEdit finds e.Find in head, which must occur exactly once, and
// widens the replacement to whole lines.
func ResolveEdit(head []byte, e agc.Edit) (Change, error) {
	if e.Find == "" {
		return Change{}, errors.New("the edit's find text is empty")
	}
	s := bytes.Index(head, []byte(e.Find))
	if s < 0 {
		return Change{}, fmt.Errorf("the edit's find text is not in %s at the head commit", e.Path)
	}
	if bytes.Contains(head[s+1:], []byte(e.Find)) {
		return Change{}, fmt.Errorf("the edit's find text occurs more than once in %s", e.Path)
	}
	end := s + len(e.Find)
	lineStart := bytes.LastIndexByte(head[:s], '\n') + 1
	regionEnd := end
	if end > 0 && head[end-1] != '\n' {
		regionEnd = lineEnd(head, end)
	}
	newText := string(head[lineStart:s]) + e.Replace + string(head[end:regionEnd])
	// A replacement that drops the newline of the last line joins it with
	// the next: take that line into the change too.
	if newText != "" && !strings.HasSuffix(newText, "\n") && regionEnd < len(head) {
		next := lineEnd(head, regionEnd)
		newText += string(head[regionEnd:next])
		regionEnd = next
	}
	start := 1 + bytes.Count(head[:lineStart], []byte("\n"))
	last := start + bytes.Count(head[lineStart:regionEnd-1], []byte("\n"))
	crlf := false
	if nl := bytes.IndexByte(head, '\n'); nl > 0 {
		crlf = head[nl-1] == '\r'
	}
	return Change{Path: e.Path, Start: start, End: last, Old: string(head[lineStart:regionEnd]), New: newText, CRLF: crlf}, nil
}

// lineEnd returns the offset just past the newline ending the line that
// holds offset i (or len(b)).
func lineEnd(b []byte, i int) int {
	if j := bytes.IndexByte(b[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(b)
}

// Suggestable reports whether c can be a ```suggestion on diff d: its lines
// lie inside one hunk on the right side, and its new text holds no
// character a reader cannot see (Hidden).
func (c Change) Suggestable(d *FileDiff) bool {
	return d.InOneHunk(c.Start, c.End) && len(c.Hidden()) == 0
}

// Suggestion returns c as a ```suggestion block. GitHub replaces the
// commented lines (start_line..line) with the block's content; an empty
// block deletes them.
func (c Change) Suggestion() string {
	content := c.New
	if content != "" && !strings.HasSuffix(content, "\n") {
		content += "\n"
	}
	f := fence(content)
	return f + "suggestion\n" + content + f + "\n"
}

// fence returns a backtick fence longer than any run of backticks or tildes
// in content, so no line of it, indented or not, can close the block.
func fence(content string) string {
	n := 3
	for _, c := range []byte{'`', '~'} {
		run := 0
		for i := 0; i < len(content); i++ {
			if content[i] == c {
				run++
				n = max(n, run+1)
			} else {
				run = 0
			}
		}
	}
	return strings.Repeat("`", n)
}
