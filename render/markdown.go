package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/agcgate/agc-action/agc"
)

// Markdown writes r as GitHub-flavoured Markdown: a heading and a list for
// the response, then each finding in the response's order under its own
// heading, as FindingMarkdown shows it. Every value from the response is
// escaped or put in code, so the output is safe in a PR comment or a job
// summary whatever the response holds.
func Markdown(w io.Writer, r *agc.Response) error {
	var b strings.Builder
	mdHeader(&b, r)
	for i := range r.Findings {
		fmt.Fprintf(&b, "\n#### Finding %d of %d\n\n", i+1, len(r.Findings))
		b.WriteString(FindingMarkdown(&r.Findings[i]))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func mdHeader(b *strings.Builder, r *agc.Response) {
	g := r.Gate
	fmt.Fprintf(b, "### AGC gate %s (", CodeSpan(g.ID))
	if g.Version != "" {
		fmt.Fprintf(b, "version %s, ", CodeSpan(g.Version))
	}
	fmt.Fprintf(b, "%s gate): %s\n\n", mdText(g.Kind), mdText(r.Verdict))
	item(b, "Subject", mdText(r.Subject.Kind)+" "+CodeSpan(r.Subject.Fingerprint))
	if len(r.Subject.Scope) > 0 {
		item(b, "Scope", codeSpans(r.Subject.Scope))
	}
	item(b, "Attempt", strconv.Itoa(r.Attempt.N)+"/"+strconv.Itoa(r.Attempt.Budget))
	item(b, "Coverage", completeWord(r.Coverage.Complete))
	item(b, "Classes", codeSpans(r.Coverage.Classes))
	if r.Coverage.NotChecked != nil {
		item(b, "Not checked", proseList(r.Coverage.NotChecked))
	}
	item(b, "Findings", findingCount(count(r.Findings), len(r.Findings)))
	item(b, "Carried", codeSpans(r.Carried))
}

// FindingMarkdown renders one finding as Markdown, for a PR review comment:
// id, class, location, severity and status as a list, then what, why, the
// remedy and the check, in that order (§12).
func FindingMarkdown(f *agc.Finding) string {
	var b strings.Builder
	item(&b, "Id", CodeSpan(f.ID))
	item(&b, "Class", CodeSpan(f.Class))
	item(&b, "Location", CodeSpan(f.Location))
	item(&b, "Severity", mdText(f.Severity))
	item(&b, "Status", mdText(f.Status))
	fmt.Fprintf(&b, "\n**What:** %s\n\n", mdLines(f.What))
	fmt.Fprintf(&b, "**Why:** %s\n\n", mdLines(f.Why))
	mdSection(&b, "Remedy", remedySection(&f.Remedy))
	mdSection(&b, "Check", checkSection(&f.Check))
	return strings.TrimRight(b.String(), "\n") + "\n"
}

func item(b *strings.Builder, label, value string) {
	fmt.Fprintf(b, "- **%s:** %s\n", label, value)
}

// mdSection writes a remedy or a check: its kind and the renderer's note,
// then each part as a paragraph, a code block or a list.
func mdSection(b *strings.Builder, label string, s section) {
	fmt.Fprintf(b, "**%s:** %s\n\n", label, s.head())
	for _, p := range s.parts {
		mdPart(b, p)
	}
}

func mdPart(b *strings.Builder, p part) {
	switch p.style {
	case prose:
		fmt.Fprintf(b, "%s: %s\n\n", p.label, mdLines(p.value))
	case ident:
		fmt.Fprintf(b, "%s: %s\n\n", p.label, CodeSpan(p.value))
	case block:
		fmt.Fprintf(b, "%s:\n\n%s\n", p.label, codeBlock(p.lang, p.value))
	case list:
		fmt.Fprintf(b, "%s:\n\n", p.label)
		for i, it := range p.items {
			fmt.Fprintf(b, "%d. %s\n", i+1, mdLines(it))
		}
		b.WriteString("\n")
	}
}

// mdText escapes a one-line value, or says it is empty.
func mdText(s string) string { return orEmpty(Escape(s)) }

// mdLines escapes a value that may hold line breaks, or says it is empty.
func mdLines(s string) string {
	if s == "" {
		return "(empty)"
	}
	return escapeLines(s)
}

func codeSpans(ss []string) string {
	if len(ss) == 0 {
		return "none"
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = CodeSpan(s)
	}
	return strings.Join(out, ", ")
}

func proseList(ss []string) string {
	if len(ss) == 0 {
		return "none"
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = mdLines(s)
	}
	return strings.Join(out, "; ")
}
