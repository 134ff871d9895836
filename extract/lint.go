package extract

import "fmt"

// lints are the advisory remarks about the block found.
func lints(message []byte, b Block, nested bool) []Lint {
	var out []Lint
	if len(b.Content) == 0 {
		out = append(out, Lint{b.StartLine, "the agc block is empty"})
	}
	if nested {
		out = append(out, Lint{b.StartLine, "the agc block is inside a block quote or list item; put it at the top level of the message"})
	}
	if n := proseAfter(string(message), b.EndLine); n > 0 {
		out = append(out, Lint{n, fmt.Sprintf("prose after the agc block at line %d; the block should end the message", b.StartLine)})
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
