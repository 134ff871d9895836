package ghapi

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/render"
	"github.com/google/go-github/v62/github"
)

// Check run limits.
const (
	MaxCheckText      = 65535 // characters in output.summary and output.text
	MaxAnnotations    = 50    // annotations per request
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

// CheckInput is one gate's response for its check run.
type CheckInput struct {
	HeadSHA  string
	Response *agc.Response
	// Raw is the response's bytes as the gate wrote them, embedded so a
	// later run reads back exactly these; nil embeds agc.Encode's output.
	Raw        []byte
	Head       FileReader // to place annotations from patch remedies
	DetailsURL string     // the workflow run, shown for action_required
}

// CheckRun posts the check run agc/<gate.id>: its conclusion from the
// verdict, the rendered response as summary, the response embedded in the
// text, and one annotation per finding with a line, 50 per request.
func (c *Client) CheckRun(ctx context.Context, in CheckInput) (*github.CheckRun, error) {
	r := in.Response
	raw := in.Raw
	if raw == nil {
		var err error
		if raw, err = agc.Encode(r); err != nil {
			return nil, fmt.Errorf("encode response of gate %s: %w", r.Gate.ID, err)
		}
	}
	summary, err := checkSummary(r)
	if err != nil {
		return nil, err
	}
	out := &github.CheckRunOutput{Title: github.String(checkTitle(r)), Summary: &summary, Text: github.String(EmbedResponse(raw))}
	anns := Annotations(r, in.Head)
	first := anns[:min(len(anns), MaxAnnotations)]
	out.Annotations = first
	opt := github.CreateCheckRunOptions{Name: CheckName(r.Gate.ID), HeadSHA: in.HeadSHA,
		Status: github.String("completed"), Conclusion: github.String(Conclusion(r.Verdict)), Output: out}
	if in.DetailsURL != "" {
		opt.DetailsURL = github.String(in.DetailsURL)
	}
	run, _, err := c.gh.Checks.CreateCheckRun(ctx, c.cfg.Owner, c.cfg.Repo, opt)
	if err != nil {
		return nil, wrap("create check run "+CheckName(r.Gate.ID), err)
	}
	for rest := anns[len(first):]; len(rest) > 0; rest = rest[min(len(rest), MaxAnnotations):] {
		batch := &github.CheckRunOutput{Title: out.Title, Summary: out.Summary, Text: out.Text,
			Annotations: rest[:min(len(rest), MaxAnnotations)]}
		upd := github.UpdateCheckRunOptions{Name: CheckName(r.Gate.ID), Output: batch}
		if run, _, err = c.gh.Checks.UpdateCheckRun(ctx, c.cfg.Owner, c.cfg.Repo, run.GetID(), upd); err != nil {
			return nil, wrap("add annotations to check run "+CheckName(r.Gate.ID), err)
		}
	}
	return run, nil
}

func checkTitle(r *agc.Response) string {
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

// checkSummary renders r as Markdown within GitHub's limit, cut before a
// finding's heading when it is too long, saying how many were left out.
func checkSummary(r *agc.Response) (string, error) {
	var b strings.Builder
	if err := render.Markdown(&b, r); err != nil {
		return "", fmt.Errorf("render response of gate %s: %w", r.Gate.ID, err)
	}
	return cutMarkdown(b.String(), "\n#### ", MaxCheckText), nil
}

// cutMarkdown returns s when it has at most limit characters, else s cut
// at the last sep that leaves room for a note, so no block is left open.
func cutMarkdown(s, sep string, limit int) string {
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	const noteRoom = 300
	cut := len(cutRunes(s, limit-noteRoom))
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

// cutRunes returns the longest prefix of s with at most n runes.
func cutRunes(s string, n int) string {
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

// Annotations returns a check-run annotation for each finding with a line.
func Annotations(r *agc.Response, head FileReader) []*github.CheckRunAnnotation {
	var out []*github.CheckRunAnnotation
	for i := range r.Findings {
		f := &r.Findings[i]
		pos := filePosition(f, head)
		if pos.Path == "" || pos.Start == 0 {
			continue
		}
		level := "warning"
		if f.Severity == agc.Blocking {
			level = "failure"
		}
		out = append(out, &github.CheckRunAnnotation{
			Path: github.String(pos.Path), StartLine: github.Int(pos.Start), EndLine: github.Int(pos.End),
			AnnotationLevel: github.String(level), Title: github.String(cutRunes(f.Class+": "+f.ID, 255)),
			Message: github.String(cutRunes(f.What+"\n"+f.Why, 60000)),
		})
	}
	return out
}

// statusDescription is the verdict and counts, then the first blocking
// finding, cut to 140 characters on a rune boundary.
func statusDescription(r *agc.Response) string {
	d := checkTitle(r)
	if b := r.Blocking(); len(b) > 0 {
		d += ". " + strings.Join(strings.Fields(b[0].What), " ")
	}
	return cutRunes(d, MaxStatusDescribe)
}

// Status posts the commit status agc/<gate.id>: success for allow and
// repaired, failure otherwise, with a description cut to 140 characters.
func (c *Client) Status(ctx context.Context, sha string, r *agc.Response, targetURL string) error {
	state := "failure"
	if Conclusion(r.Verdict) == "success" {
		state = "success"
	}
	st := &github.RepoStatus{State: github.String(state), Context: github.String(CheckName(r.Gate.ID)),
		Description: github.String(statusDescription(r))}
	if targetURL != "" {
		st.TargetURL = github.String(targetURL)
	}
	if _, _, err := c.gh.Repositories.CreateStatus(ctx, c.cfg.Owner, c.cfg.Repo, sha, st); err != nil {
		return wrap("create status "+CheckName(r.Gate.ID), err)
	}
	return nil
}
