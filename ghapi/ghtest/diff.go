package ghtest

import (
	"fmt"
	"strings"
)

// The emulator computes a file's patch from its base and head contents the
// way git does (3 lines of context, counts of 1 omitted), so tests describe
// a pull request by its files and the diff follows. This is independent of
// the patch parser the client uses (review.ParsePatch), on purpose.

const diffContext = 3

// diffLine is one line of a hunk: op is ' ', '-' or '+'; old and new are
// 1-based line numbers on each side (0 where the line has none).
type diffLine struct {
	op       byte
	text     string
	old, new int
}

type hunk struct{ lines []diffLine }

// splitLines splits s into lines without their newlines.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// editScript returns the longest-common-subsequence alignment of a and b as
// a sequence of diffLines.
func editScript(a, b []string) []diffLine {
	n, m := len(a), len(b)
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []diffLine
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			out = append(out, diffLine{' ', a[i], i + 1, j + 1})
			i, j = i+1, j+1
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			out = append(out, diffLine{'+', b[j], 0, j + 1})
			j++
		default:
			out = append(out, diffLine{'-', a[i], i + 1, 0})
			i++
		}
	}
	return out
}

// hunks groups an edit script into hunks with diffContext lines of context:
// the lines within diffContext of a change, runs of them one hunk.
func hunks(script []diffLine) []hunk {
	near := make([]bool, len(script)+1)
	for i, l := range script {
		if l.op != ' ' {
			for j := max(0, i-diffContext); j <= min(len(script)-1, i+diffContext); j++ {
				near[j] = true
			}
		}
	}
	var out []hunk
	for i := 0; i < len(script); i++ {
		if near[i] {
			j := i
			for near[j] {
				j++
			}
			out = append(out, hunk{lines: script[i:j]})
			i = j
		}
	}
	return out
}

// formatPatch writes hunks as the `patch` field of a PR file.
func formatPatch(hs []hunk) string {
	var b strings.Builder
	for k, h := range hs {
		if k > 0 {
			b.WriteByte('\n')
		}
		oldStart, oldN, newStart, newN := h.ranges()
		fmt.Fprintf(&b, "@@ -%s +%s @@", rangeText(oldStart, oldN), rangeText(newStart, newN))
		for _, l := range h.lines {
			b.WriteByte('\n')
			b.WriteByte(l.op)
			b.WriteString(l.text)
		}
	}
	return b.String()
}

func (h hunk) ranges() (oldStart, oldN, newStart, newN int) {
	for _, l := range h.lines {
		if l.old > 0 {
			if oldStart == 0 {
				oldStart = l.old
			}
			oldN++
		}
		if l.new > 0 {
			if newStart == 0 {
				newStart = l.new
			}
			newN++
		}
	}
	// With context lines a side is empty only when its file is (git
	// writes -0,0 or +0,0), so the zero starts are already right.
	return
}

func rangeText(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}
