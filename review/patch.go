package review

import (
	"fmt"
	"strconv"
	"strings"
)

// Line kinds of a unified diff.
const (
	Context = ' '
	Added   = '+'
	Deleted = '-'
)

// PatchLine is one line of a hunk with its numbers on each side (0 where the
// line is absent from that side).
type PatchLine struct {
	Kind     byte
	Old, New int
	Text     string
}

// Hunk is one "@@ -a,b +c,d @@" section of a file's patch.
type Hunk struct {
	OldStart, OldLines int
	NewStart, NewLines int
	Lines              []PatchLine
}

// ParsePatch parses the `patch` field GitHub gives for a pull request file:
// hunks without file headers. An empty patch (a binary file, or one too
// large for GitHub to show) has no hunks. Errors name the patch line.
func ParsePatch(patch string) ([]Hunk, error) {
	if patch == "" {
		return nil, nil
	}
	lines := strings.Split(strings.TrimSuffix(patch, "\n"), "\n")
	var hunks []Hunk
	for i := 0; i < len(lines); {
		h, err := parseHeader(lines[i])
		if err != nil {
			return nil, fmt.Errorf("patch line %d: %w", i+1, err)
		}
		i++
		n, err := parseBody(&h, lines[i:], i)
		if err != nil {
			return nil, err
		}
		i += n
		hunks = append(hunks, h)
	}
	return hunks, nil
}

// parseHeader reads "@@ -a[,b] +c[,d] @@ optional section".
func parseHeader(s string) (Hunk, error) {
	rest, ok := strings.CutPrefix(s, "@@ -")
	if !ok {
		return Hunk{}, fmt.Errorf("expected a hunk header \"@@ -a,b +c,d @@\", got %q", clip(s))
	}
	ranges, _, ok := strings.Cut(rest, " @@")
	if !ok {
		return Hunk{}, fmt.Errorf("hunk header %q has no closing @@", clip(s))
	}
	oldR, newR, ok := strings.Cut(ranges, " +")
	if !ok {
		return Hunk{}, fmt.Errorf("hunk header %q has no +range", clip(s))
	}
	var h Hunk
	var err error
	if h.OldStart, h.OldLines, err = parseRange(oldR); err != nil {
		return Hunk{}, fmt.Errorf("hunk header %q: %w", clip(s), err)
	}
	if h.NewStart, h.NewLines, err = parseRange(newR); err != nil {
		return Hunk{}, fmt.Errorf("hunk header %q: %w", clip(s), err)
	}
	return h, nil
}

const maxLineNumber = 1 << 30

func parseRange(s string) (start, n int, err error) {
	a, b, hasCount := strings.Cut(s, ",")
	if start, err = strconv.Atoi(a); err != nil || start < 0 || start > maxLineNumber {
		return 0, 0, fmt.Errorf("bad range start %q", a)
	}
	n = 1
	if hasCount {
		if n, err = strconv.Atoi(b); err != nil || n < 0 || n > maxLineNumber {
			return 0, 0, fmt.Errorf("bad range count %q", b)
		}
	}
	if n > 0 && start == 0 {
		return 0, 0, fmt.Errorf("range %q starts at line 0", s)
	}
	return start, n, nil
}

// parseBody reads the hunk's lines until both counts are used up. It
// returns how many patch lines it consumed; base is the index of the first
// one, for messages.
func parseBody(h *Hunk, lines []string, base int) (int, error) {
	old, nw := h.OldStart, h.NewStart
	remOld, remNew := h.OldLines, h.NewLines
	i := 0
	for ; i < len(lines) && (remOld > 0 || remNew > 0); i++ {
		l := lines[i]
		kind := byte(Context)
		if l != "" {
			kind = l[0]
		}
		text := strings.TrimPrefix(l, string(kind))
		switch {
		case kind == '\\':
			continue // "\ No newline at end of file"
		case kind == Context && remOld > 0 && remNew > 0:
			h.Lines = append(h.Lines, PatchLine{Context, old, nw, text})
			old, nw, remOld, remNew = old+1, nw+1, remOld-1, remNew-1
		case kind == Deleted && remOld > 0:
			h.Lines = append(h.Lines, PatchLine{Deleted, old, 0, text})
			old, remOld = old+1, remOld-1
		case kind == Added && remNew > 0:
			h.Lines = append(h.Lines, PatchLine{Added, 0, nw, text})
			nw, remNew = nw+1, remNew-1
		default:
			return 0, fmt.Errorf("patch line %d: %q does not fit the hunk (%d old and %d new lines left)", base+i+1, clip(l), remOld, remNew)
		}
	}
	if remOld > 0 || remNew > 0 {
		return 0, fmt.Errorf("patch line %d: hunk ends early (%d old and %d new lines missing)", base+i, remOld, remNew)
	}
	for i < len(lines) && strings.HasPrefix(lines[i], "\\") {
		i++
	}
	return i, nil
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
