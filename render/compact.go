package render

import (
	"fmt"
	"strings"

	"github.com/agcgate/agc-action/agc"
)

// The compact form of a finding is what a review comment and a summary
// show: a headline (severity mark, rule, what), the why when it adds
// something, and the rest as a short list a comment folds away. A finding
// a linter wrote (through SARIF) is worded in the linter's terms: its
// rule, its fix, re-running it; never the contract's vocabulary.

// Words say how the compact form words a finding.
type Words struct {
	// Tool, when set, is the linter a finding converted from SARIF came
	// from: its remedy and check are worded as re-running it.
	Tool string
	// HelpURI is the rule's documentation, linked when it is https.
	HelpURI string
	// SuggestionShown is set when the comment shows the finding's patch
	// as a suggestion: its edit is not shown again as a diff.
	SuggestionShown bool
}

// SeverityMark is a finding's severity as a mark and a word.
func SeverityMark(severity string) string {
	switch severity {
	case agc.Blocking:
		return "⛔ blocking"
	case agc.Advisory:
		return "⚠️ advisory"
	}
	return "❔ " + orEmpty(Escape(severity))
}

// Rule is a finding's class as a code span, linked to its help page when
// the page is https (the host shown after it).
func Rule(class string, w Words) string {
	return Link(CodeSpan(class), w.HelpURI)
}

// Headline is one line: the severity mark, the rule and the what.
func Headline(f *agc.Finding, w Words) string {
	return fmt.Sprintf("**%s** %s: %s", SeverityMark(f.Severity), Rule(f.Class, w), mdText(firstLine(f.What)))
}

// Why is the finding's why when it says more than its headline, else "".
// A linter's why is "Rule R of TOOL: description" (or "Rule R of TOOL."
// when its rule has none); the headline names the rule already, so only
// the description is kept.
func Why(f *agc.Finding, w Words) string {
	why := strings.TrimSpace(f.Why)
	if rest, ok := strings.CutPrefix(why, "Rule "+f.Class+" of "); ok && w.Tool != "" {
		_, desc, _ := strings.Cut(rest, ": ")
		if why = strings.TrimSpace(desc); why == "" {
			return ""
		}
		why = strings.TrimSuffix(why, ".") + "."
	}
	if why == "" || strings.EqualFold(strings.TrimSuffix(why, "."), strings.TrimSuffix(strings.TrimSpace(f.What), ".")) {
		return ""
	}
	// The rest of a what longer than a line goes with the why.
	if _, rest, ok := strings.Cut(strings.TrimSpace(f.What), "\n"); ok {
		why = rest + "\n\n" + why
	}
	return mdLines(why)
}

// firstLine is the first line of s.
func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}

// Details is the rest of the compact form, a Markdown list: the id, the
// status, the remedy and the check. A linter's finding (w.Tool set) says
// what fixes it and how to check in the linter's terms; the contract's
// findings keep their remedy's and check's kind and payload, without the
// patch's diff when the suggestion shows it.
func Details(f *agc.Finding, w Words) string {
	var b strings.Builder
	fmt.Fprintf(&b, "- Id: %s\n- Status: %s\n", CodeSpan(f.ID), mdText(f.Status))
	if w.Tool != "" {
		toolDetails(&b, f, w)
	} else {
		agcDetails(&b, f, w)
	}
	return b.String()
}

func toolDetails(b *strings.Builder, f *agc.Finding, w Words) {
	tool := mdText(w.Tool)
	switch {
	case f.Remedy.Kind == agc.RemedyPatch && w.SuggestionShown:
		fmt.Fprintf(b, "- Fix: the suggestion is %s's own fix\n", tool)
	case f.Remedy.Kind == agc.RemedyPatch:
		fmt.Fprintf(b, "- Fix: %s's own fix:\n\n", tool)
		for _, e := range f.Remedy.Edits {
			b.WriteString(indent(codeBlock("diff", diff(e)), "  "))
		}
	}
	switch {
	case f.Check.Kind == agc.CheckCommand && f.Check.Run != "":
		fmt.Fprintf(b, "- Check: re-run %s\n", CodeSpan(f.Check.Run))
	default:
		fmt.Fprintf(b, "- Check: re-run %s\n", tool)
	}
}

func agcDetails(b *strings.Builder, f *agc.Finding, w Words) {
	r := remedySection(&f.Remedy)
	if w.SuggestionShown {
		kept := r.parts[:0:0]
		for _, p := range r.parts {
			if p.label != "edit" {
				kept = append(kept, p)
			}
		}
		r.parts = kept
		r.note = joinNote(r.note, "the suggestion shows the edit")
	}
	detailSection(b, "Remedy", r)
	detailSection(b, "Check", checkSection(&f.Check))
}

// detailSection writes a remedy or a check as a list item, its parts
// indented under it.
func detailSection(b *strings.Builder, label string, s section) {
	fmt.Fprintf(b, "- %s: %s\n", label, s.head())
	for _, p := range s.parts {
		var pb strings.Builder
		mdPart(&pb, p)
		b.WriteString("\n" + indent(strings.TrimRight(pb.String(), "\n")+"\n", "  "))
	}
}
