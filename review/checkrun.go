package review

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/render"
	"github.com/google/go-github/v62/github"
)

// GitHub's limits on what a check run and a status say.
const (
	MaxCheckText      = 65535 // characters in output.summary and output.text
	MaxStatusDescribe = 140   // characters in a status description
)

// CheckName is the check run and status context of a gate: agc/<gate.id>.
func CheckName(gate string) string { return "agc/" + gate }

// Conclusion maps a verdict to a check run conclusion.
func Conclusion(verdict string) string {
	switch verdict {
	case agc.Allow, agc.Repaired:
		return "success"
	case agc.Escalate:
		return "action_required"
	}
	return "failure"
}

// CheckTitle is a check run's title, and the start of its status's
// description: the verdict and the counts.
func CheckTitle(r *agc.Response) string {
	var blocking, advisory int
	for _, f := range r.Findings {
		if f.Severity == agc.Blocking {
			blocking++
		} else {
			advisory++
		}
	}
	return fmt.Sprintf("%s: %d blocking, %d advisory", r.Verdict, blocking, advisory)
}

// CheckSummary renders r as Markdown within GitHub's limit, after note (a
// paragraph saying where the findings went, or ""), cut before a finding's
// heading when it is too long, saying how many were left out.
func CheckSummary(r *agc.Response, note string) (string, error) {
	var b strings.Builder
	if note != "" {
		b.WriteString(note + "\n")
	}
	if err := render.Markdown(&b, r); err != nil {
		return "", fmt.Errorf("render response of gate %s: %w", r.Gate.ID, err)
	}
	return cutMarkdown(b.String(), "\n#### ", MaxCheckText), nil
}

// CheckNote is the paragraph at the top of a check run's summary saying
// where its gate's findings went when not all of them are on the pull
// request in full: p is the gate's review plan (nil: no review),
// annotated of withLine findings with a line are annotations, and embedded
// says whether the whole response is embedded in the check run. It is ""
// when nothing was left out.
func CheckNote(p *ReviewPlan, annotated, withLine int, embedded bool) string {
	var parts []string
	if p != nil && (p.Unlisted > 0 || p.Capped > 0 || p.NoReview) {
		if p.NoReview {
			parts = append(parts, fmt.Sprintf("this run's reviews were spent (at most %d a run), so this gate has no review this time.", MaxReviewsPerRun))
		}
		s := fmt.Sprintf("on the pull request, %d findings are inline comments and %d are listed in the review body", p.Inline, p.Listed)
		if p.Unlisted > 0 {
			s += fmt.Sprintf("; %d are only in this check run and the SARIF file", p.Unlisted)
		}
		parts = append(parts, s+".")
	}
	if annotated < withLine {
		parts = append(parts, fmt.Sprintf("The first %d of the %d findings with a line are annotations (at most %d a check run).",
			annotated, withLine, MaxAnnotationsPerGate))
	}
	if len(parts) == 0 {
		return ""
	}
	where := "The response embedded in this check run and the SARIF file (code scanning, or the Action's sarif-file output) hold every finding."
	if !embedded {
		where = "The response is too large to embed in this check run; the SARIF file (code scanning, or the Action's sarif-file output) holds every finding."
	}
	return fmt.Sprintf("> **Write ceiling** (docs/github.md): %s %s\n", strings.Join(parts, " "), where)
}

// cutMarkdown returns s when it has at most limit characters, else s cut
// at the last sep that leaves room for a note, so no block is left open.
func cutMarkdown(s, sep string, limit int) string {
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	const noteRoom = 300
	cut := len(CutRunes(s, limit-noteRoom))
	heads, lines := sectionStarts(s, strings.TrimPrefix(sep, "\n"))
	i := lastBefore(heads, cut)
	if i <= 0 {
		i = lastBefore(lines, cut)
	}
	if i <= 0 {
		i = 0
	}
	left := 0
	for _, h := range heads {
		if h >= i {
			left++
		}
	}
	return s[:i] + fmt.Sprintf("\n\n*Cut to fit GitHub's limit of %d characters: %d more sections are in the response embedded in this check run.*\n", limit, left)
}

// sectionStarts returns the byte offsets of the lines that start with
// head, and of every line, outside fenced code blocks and <pre> blocks:
// the only places the Markdown can be cut without leaving a block open.
func sectionStarts(s, head string) (heads, lines []int) {
	var fence string // the open fence's character run, "" when none
	inPre := false
	for off := 0; off < len(s); {
		end := strings.IndexByte(s[off:], '\n')
		if end < 0 {
			end = len(s) - off
		}
		line := s[off : off+end]
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]+" \t") == "" {
				fence = ""
			}
		case inPre:
			if strings.Contains(line, "</pre>") {
				inPre = false
			}
		default:
			lines = append(lines, off)
			if strings.HasPrefix(line, head) {
				heads = append(heads, off)
			}
			if f := openingFence(trimmed); f != "" && len(line)-len(trimmed) <= 3 {
				fence = f
			} else if strings.HasPrefix(trimmed, "<pre") && !strings.Contains(line, "</pre>") {
				inPre = true
			}
		}
		off += end + 1
	}
	return heads, lines
}

// openingFence returns the run of backticks or tildes a fenced code block
// opens with, or "".
func openingFence(line string) string {
	for _, c := range []string{"`", "~"} {
		n := len(line) - len(strings.TrimLeft(line, c))
		if n >= 3 {
			return strings.Repeat(c, n)
		}
	}
	return ""
}

// lastBefore returns the largest offset in offs that is at most cut, or 0.
func lastBefore(offs []int, cut int) int {
	best := 0
	for _, o := range offs {
		if o <= cut && o > best {
			best = o
		}
	}
	return best
}

// CutRunes returns the longest prefix of s with at most n runes: GitHub
// counts its limits in characters.
func CutRunes(s string, n int) string {
	if n <= 0 {
		return ""
	}
	i := 0
	for k := range s {
		if i == n {
			return s[:k]
		}
		i++
	}
	return s
}

// Annotations returns a check-run annotation for each of the first limit
// findings with a line (limit <= 0: all of them), and how many findings
// have a line.
func Annotations(r *agc.Response, head FileReader, limit int) (anns []*github.CheckRunAnnotation, withLine int) {
	var out []*github.CheckRunAnnotation
	for i := range r.Findings {
		f := &r.Findings[i]
		pos := filePosition(f, head)
		if pos.Path == "" || pos.Start == 0 {
			continue
		}
		if withLine++; limit > 0 && len(out) >= limit {
			continue
		}
		level := "warning"
		if f.Severity == agc.Blocking {
			level = "failure"
		}
		out = append(out, &github.CheckRunAnnotation{
			Path: github.String(pos.Path), StartLine: github.Int(pos.Start), EndLine: github.Int(pos.End),
			AnnotationLevel: github.String(level), Title: github.String(CutRunes(f.Class+": "+f.ID, 255)),
			Message: github.String(CutRunes(f.What+"\n"+f.Why, 60000)),
		})
	}
	return out, withLine
}

// StatusDescription is the verdict and counts, then the first blocking
// finding, cut to 140 characters on a rune boundary.
func StatusDescription(r *agc.Response) string {
	d := CheckTitle(r)
	if b := r.Blocking(); len(b) > 0 {
		d += ". " + strings.Join(strings.Fields(b[0].What), " ")
	}
	return CutRunes(d, MaxStatusDescribe)
}
