package review

import (
	"fmt"
	"strings"

	"github.com/agcgate/agc-action/agc"
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
// description: the verdict, the counts and the round, which GitHub shows
// beside the check's name in the pull request's list of checks.
func CheckTitle(r *agc.Response) string {
	var blocking, advisory int
	for _, f := range r.Findings {
		if f.Severity == agc.Blocking {
			blocking++
		} else {
			advisory++
		}
	}
	return fmt.Sprintf("%s: %d blocking, %d advisory, round %d of %d", r.Verdict, blocking, advisory, r.Attempt.N, r.Attempt.Budget)
}

// CheckSummary is r's check run summary (GateSummary) within GitHub's
// limit, after note (a paragraph saying where the findings went, or "").
func CheckSummary(r *agc.Response, note string, head FileReader, links Links) string {
	return GateSummary(r, note, SummaryOptions{Head: head, Links: links, Limit: MaxCheckText,
		Elsewhere: "the response embedded in this check run and the SARIF file (code scanning, or the Action's sarif-file output)"})
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
// findings with a line (plain text: its message starts with path:line) (limit <= 0: all of them), and how many findings
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
			Message: github.String(CutRunes(LineText(pos)+": "+f.What+"\n"+f.Why, 60000)),
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
