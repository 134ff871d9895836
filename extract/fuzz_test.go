package extract

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
)

func FuzzFind(f *testing.F) {
	for _, in := range messages(f) {
		msg, err := os.ReadFile(in)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(msg)
	}
	for _, tc := range findCases {
		f.Add([]byte(tc.in))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		b, lints, err := Find("msg.md", msg)
		n := len(inputLines(msg))
		if err != nil {
			checkError(t, err, n)
			return
		}
		checkInvariants(t, msg, b)
		for _, l := range lints {
			if l.Line < b.StartLine || l.Line > n || l.Message == "" {
				t.Errorf("lint %+v outside the message (%d lines) or before the block", l, n)
			}
		}
	})
}

func checkError(t *testing.T, err error, n int) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %T %v, want *Error", err, err)
	}
	if !slices.Contains([]string{KindNone, KindSeveral, KindUnterminated}, e.Kind) || len(e.Lines) == 0 || e.Msg == "" {
		t.Fatalf("malformed error %+v", e)
	}
	if e.Kind == KindSeveral && len(e.Lines) < 2 {
		t.Errorf("several with lines %v", e.Lines)
	}
	for _, l := range e.Lines {
		if l < 1 || l > max(n, 1) {
			t.Errorf("error names line %d of a %d-line message", l, n)
		}
	}
}

// inputLines splits msg at LF, CRLF and CR.
func inputLines(msg []byte) []string {
	return slices.Collect(lines(string(msg)))
}

// checkInvariants: the block lies within the message, its content has one
// line per line between the fences, and each content line is the end of
// its input line (a partly removed tab written as spaces).
func checkInvariants(t *testing.T, msg []byte, b Block) {
	t.Helper()
	in := inputLines(msg)
	if b.StartLine < 1 || b.StartLine >= b.EndLine || b.EndLine > len(in) {
		t.Fatalf("block lines %d-%d in a %d-line message", b.StartLine, b.EndLine, len(in))
	}
	if len(b.Content) > 0 && b.Content[len(b.Content)-1] != '\n' {
		t.Fatalf("content %q does not end with a newline", b.Content)
	}
	got := strings.Split(strings.TrimSuffix(string(b.Content), "\n"), "\n")
	if len(b.Content) == 0 {
		got = nil
	}
	between := in[b.StartLine : b.EndLine-1]
	if len(got) != len(between) {
		t.Fatalf("content has %d lines, the message %d between lines %d and %d", len(got), len(between), b.StartLine, b.EndLine)
	}
	for i, c := range got {
		if !isLineEnd(between[i], c) {
			t.Errorf("content line %q is not the end of input line %d %q", c, b.StartLine+1+i, between[i])
		}
	}
	if !isFenceLine(in[b.StartLine-1]) || !isFenceLine(in[b.EndLine-1]) {
		t.Errorf("lines %d and %d are not both fences: %q, %q", b.StartLine, b.EndLine, in[b.StartLine-1], in[b.EndLine-1])
	}
}

// isLineEnd reports whether content line c is the end of input line in,
// or 1 to 3 spaces (the rest of a partly removed tab) and then the end of
// in just after a tab.
func isLineEnd(in, c string) bool {
	if strings.HasSuffix(in, c) {
		return true
	}
	for k := 1; k <= 3 && k <= len(c) && c[k-1] == ' '; k++ {
		rest := c[k:]
		if strings.HasSuffix(in, rest) && len(in) > len(rest) && in[len(in)-len(rest)-1] == '\t' {
			return true
		}
	}
	return false
}

func isFenceLine(l string) bool {
	return strings.Contains(l, "```") || strings.Contains(l, "~~~")
}
