package extract

import (
	"fmt"

	"github.com/agcgate/agc-action/diag"
)

// lints are the advisory remarks about the block found in file.
func lints(file string, message []byte, b Block, nested bool) []diag.Lint {
	var out []diag.Lint
	at := func(line int, msg string) {
		out = append(out, diag.Lint{Place: diag.Place{File: file, Line: line}, Message: msg})
	}
	if len(b.Content) == 0 {
		at(b.StartLine, "the agc block is empty")
	}
	if nested {
		at(b.StartLine, "the agc block is inside a block quote or list item; put it at the top level of the message")
	}
	if n := proseAfter(string(message), b.EndLine); n > 0 {
		at(n, fmt.Sprintf("prose after the agc block at line %d; the block should end the message", b.StartLine))
	}
	return out
}

// proseAfter returns the first line after line end that holds anything but
// spaces, tabs and block quote markers, or 0.
func proseAfter(message string, end int) int {
	n := 0
	for line := range lines(message) {
		n++
		if n > end && !isQuoteBlank(line) {
			return n
		}
	}
	return 0
}

func isQuoteBlank(line string) bool {
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case ' ', '\t', '>':
		default:
			return false
		}
	}
	return true
}
