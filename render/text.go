package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/agcgate/agc-action/agc"
)

// Widths of the label columns.
const (
	headerWidth  = 13 // "not checked: "
	findingWidth = 10 // "location: "
)

// Text writes r as plain, aligned text: a header, then each finding in the
// response's order, as FindingText shows it.
func Text(w io.Writer, r *agc.Response) error {
	var b strings.Builder
	textHeader(&b, r)
	for i := range r.Findings {
		fmt.Fprintf(&b, "\nfinding %d of %d\n", i+1, len(r.Findings))
		b.WriteString(indent(FindingText(&r.Findings[i]), "  "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func textHeader(b *strings.Builder, r *agc.Response) {
	fmt.Fprintf(b, "AGC %s: %s\n", gateLine(r.Gate, clean), orEmpty(clean(r.Verdict)))
	f := textFields{b: b, width: headerWidth, indent: "  "}
	f.field("subject", orEmpty(clean(r.Subject.Kind))+" "+orEmpty(clean(r.Subject.Fingerprint)))
	if len(r.Subject.Scope) > 0 {
		f.field("scope", joinClean(r.Subject.Scope))
	}
	f.field("attempt", strconv.Itoa(r.Attempt.N)+"/"+strconv.Itoa(r.Attempt.Budget))
	f.field("coverage", completeWord(r.Coverage.Complete))
	f.field("classes", joinClean(r.Coverage.Classes))
	if r.Coverage.NotChecked != nil {
		f.field("not checked", joinClean(r.Coverage.NotChecked))
	}
	f.field("findings", findingCount(count(r.Findings), len(r.Findings)))
	f.field("carried", joinClean(r.Carried))
}

// gateLine names the gate: "gate ID (version V, KIND gate)".
func gateLine(g agc.Gate, esc func(string) string) string {
	s := "gate " + orEmpty(esc(g.ID)) + " ("
	if g.Version != "" {
		s += "version " + esc(g.Version) + ", "
	}
	return s + orEmpty(esc(g.Kind)) + " gate)"
}

func completeWord(complete bool) string {
	if complete {
		return "complete: every instance of every class checked is reported"
	}
	return "not complete: some instances may be unreported"
}

func findingCount(t tally, n int) string {
	if n == 0 {
		return "none"
	}
	s := fmt.Sprintf("%d: %d blocking, %d advisory", n, t.blocking, t.advisory)
	if t.other > 0 {
		s += fmt.Sprintf(", %d of another severity", t.other)
	}
	return s
}

// FindingText renders one finding as plain text: id, class, location,
// severity and status, then what, why, the remedy and the check (§12).
func FindingText(f *agc.Finding) string {
	var b strings.Builder
	t := textFields{b: &b, width: findingWidth}
	t.field("id", orEmpty(clean(f.ID)))
	t.field("class", orEmpty(clean(f.Class)))
	t.field("location", orEmpty(clean(f.Location)))
	t.field("severity", orEmpty(clean(f.Severity)))
	t.field("status", orEmpty(clean(f.Status)))
	t.field("what", orEmpty(clean(f.What)))
	t.field("why", orEmpty(clean(f.Why)))
	t.section("remedy", remedySection(&f.Remedy))
	t.section("check", checkSection(&f.Check))
	return b.String()
}

// textFields writes "label: value" lines with values aligned in a column.
type textFields struct {
	b      *strings.Builder
	width  int
	indent string
}

// field writes "label: value"; further lines of the value are indented to
// the value column.
func (t textFields) field(label, value string) { t.lead(label+":", value) }

// lead writes value after head, padded to the value column.
func (t textFields) lead(head, value string) {
	pad := strings.Repeat(" ", t.width)
	for i, l := range splitLines(value) {
		lead := pad
		if i == 0 {
			lead = fmt.Sprintf("%-*s", t.width, head)
		}
		t.b.WriteString(line(t.indent+lead, l))
	}
}

// section writes a remedy or a check: its kind and note, then its parts
// under the value column.
func (t textFields) section(label string, s section) {
	head := orEmpty(clean(s.kind))
	if s.note != "" {
		head += ": " + s.note
	}
	t.field(label, head)
	sub := textFields{b: t.b, width: 0, indent: t.indent + strings.Repeat(" ", t.width)}
	for _, p := range s.parts {
		sub.part(p)
	}
}

func (t textFields) part(p part) {
	switch {
	case p.style == list:
		t.b.WriteString(t.indent + p.label + ":\n")
		for i, it := range p.items {
			textFields{b: t.b, width: len(strconv.Itoa(i+1)) + 2, indent: t.indent + "  "}.
				lead(strconv.Itoa(i+1)+".", orEmpty(clean(it)))
		}
	case p.style == block && strings.Contains(strings.TrimSuffix(p.value, "\n"), "\n"):
		t.b.WriteString(t.indent + p.label + ":\n")
		t.b.WriteString(indent(clean(p.value), t.indent+"  "))
	default:
		textFields{b: t.b, width: len(p.label) + 2, indent: t.indent}.field(p.label, clean(p.value))
	}
}

// indent prefixes every line of s, which ends with a newline (one is added
// if it does not), with prefix.
func indent(s, prefix string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		b.WriteString(line(prefix, l))
	}
	return b.String()
}

// line writes lead and l as one line; an empty l leaves no trailing blanks.
func line(lead, l string) string {
	if l == "" {
		return strings.TrimRight(lead, " ") + "\n"
	}
	return lead + l + "\n"
}

func joinClean(ss []string) string {
	if len(ss) == 0 {
		return "none"
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = orEmpty(clean(s))
	}
	return strings.Join(out, ", ")
}

func orEmpty(s string) string {
	if s == "" {
		return "(empty)"
	}
	return s
}
