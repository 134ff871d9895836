package render

import (
	"bytes"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/go-json-experiment/json/jsontext"
)

// style says how a part's value is shown.
type style int

const (
	prose style = iota // a sentence: escaped text in Markdown
	ident              // a name or an id: an inline code span in Markdown
	block              // code: a fenced block in Markdown
	list               // a numbered list of sentences
)

// part is one payload field of a remedy or a check. label is the renderer's
// own word; value and items come from the response.
type part struct {
	label string
	style style
	value string
	items []string
	lang  string // info string of a block
}

// section is a finding's remedy or check: the kind the response gave, the
// renderer's note on what that kind asks for, and the payload.
type section struct {
	kind  string
	note  string
	parts []part
}

// head is the section's kind, escaped, and the renderer's note after it.
func (s section) head() string {
	if s.note == "" {
		return mdText(s.kind)
	}
	return mdText(s.kind) + " — " + s.note
}

// previewNote is what a preview check asks for (§7.2, §11).
const previewNote = "run this gate in preview mode (§11) on the new subject"

var remedyNotes = map[string]string{
	agc.RemedyRewrite:  "the gate replaces the action's input",
	agc.RemedyGenerate: "a tool produces the missing artifact",
	agc.RemedyPatch:    "apply these exact edits",
	agc.RemedyCommand:  "run this command",
	agc.RemedyDelegate: "a named role must fix it",
	agc.RemedyDecide:   "a person must choose",
}

var checkNotes = map[string]string{
	agc.CheckCommand:   "run this; exit status 0 means fixed",
	agc.CheckPreview:   previewNote,
	agc.CheckCondition: "an acceptance condition a reader can confirm",
}

// remedySection models a remedy. Every payload field present is shown, in
// the order of the §7.1 table, whatever the kind, so nothing is dropped.
func remedySection(r *agc.Remedy) section {
	s := section{kind: r.Kind, note: remedyNotes[r.Kind]}
	if r.Kind == agc.RemedyRewrite || r.Kind == agc.RemedyGenerate || r.Applied != nil {
		s.note = joinNote(s.note, appliedWord(r))
	}
	s.note = joinNote(s.note, missingNote(remedyMissing(r)))
	if len(r.Input) > 0 {
		s.parts = append(s.parts, part{label: "input", style: block, value: formatJSON(r.Input), lang: "json"})
	}
	if r.Tool != "" {
		s.parts = append(s.parts, part{label: "tool", style: block, value: r.Tool, lang: "shell"})
	}
	for _, e := range r.Edits {
		s.parts = append(s.parts, part{label: "edit", style: block, value: diff(e), lang: "diff"})
	}
	if r.Run != "" {
		s.parts = append(s.parts, part{label: "run", style: block, value: r.Run, lang: "shell"})
	}
	s.parts = appendIf(s.parts, part{label: "role", style: ident, value: r.Role})
	s.parts = appendIf(s.parts, part{label: "authority", style: prose, value: r.Authority})
	s.parts = appendIf(s.parts, part{label: "ask", style: ident, value: r.Ask})
	if len(r.Options) > 0 {
		s.parts = append(s.parts, part{label: "options", style: list, items: r.Options})
	}
	return s
}

// checkSection models a check: the condition to confirm, then the command.
func checkSection(c *agc.Check) section {
	s := section{kind: c.Kind, note: checkNotes[c.Kind]}
	s.note = joinNote(s.note, missingNote(checkMissing(c)))
	s.parts = appendIf(s.parts, part{label: "condition", style: prose, value: c.Condition})
	if c.Run != "" {
		s.parts = append(s.parts, part{label: "run", style: block, value: c.Run, lang: "shell"})
	}
	return s
}

// remedyMissing names the payload fields §7.1 requires of a known kind that
// the remedy lacks.
func remedyMissing(r *agc.Remedy) []string {
	var m []string
	need := func(ok bool, field string) {
		if !ok {
			m = append(m, field)
		}
	}
	switch r.Kind {
	case agc.RemedyRewrite:
		need(len(r.Input) > 0, "input")
	case agc.RemedyGenerate:
		need(r.Tool != "", "tool")
	case agc.RemedyPatch:
		need(len(r.Edits) > 0, "edits")
	case agc.RemedyCommand:
		need(r.Run != "", "run")
	case agc.RemedyDelegate:
		need(r.Role != "", "role")
	case agc.RemedyDecide:
		need(r.Ask != "", "ask")
		need(len(r.Options) > 0, "options")
	}
	return m
}

// checkMissing names the payload fields §7.2 requires of a known kind that
// the check lacks.
func checkMissing(c *agc.Check) []string {
	switch {
	case c.Kind == agc.CheckCommand && c.Run == "":
		return []string{"run"}
	case c.Kind == agc.CheckCondition && c.Condition == "":
		return []string{"condition"}
	}
	return nil
}

func missingNote(fields []string) string {
	if len(fields) == 0 {
		return ""
	}
	return "the response gives no " + strings.Join(fields, " and no ")
}

func appendIf(ps []part, p part) []part {
	if p.value == "" {
		return ps
	}
	return append(ps, p)
}

func joinNote(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

func appliedWord(r *agc.Remedy) string {
	if r.IsApplied() {
		return "applied by the gate"
	}
	return "not applied"
}

// formatJSON indents a JSON value, re-encoding strings in their shortest
// form (U+2028 and U+2029 escaped). A value that is not valid JSON is shown
// as it is; callers clean it.
func formatJSON(v jsontext.Value) string {
	out := jsontext.Value(bytes.Clone(v))
	err := out.Indent(jsontext.WithIndent("  "), jsontext.PreserveRawStrings(false), jsontext.EscapeForJS(true))
	if err != nil {
		return string(v)
	}
	return string(out)
}

// diff shows one edit in unified style: the path, then the text to find as
// "-" lines and its replacement as "+" lines.
func diff(e agc.Edit) string {
	var b bytes.Buffer
	path := oneLine(e.Path)
	b.WriteString("--- " + path + "\n+++ " + path + "\n")
	prefixLines(&b, "-", e.Find)
	prefixLines(&b, "+", e.Replace)
	return b.String()
}

func prefixLines(b *bytes.Buffer, prefix, s string) {
	if s == "" {
		return
	}
	for _, l := range splitLines(s) {
		b.WriteString(prefix + l + "\n")
	}
}

// tally counts findings by severity.
type tally struct{ blocking, advisory, other int }

func count(fs []agc.Finding) tally {
	var t tally
	for i := range fs {
		switch fs[i].Severity {
		case agc.Blocking:
			t.blocking++
		case agc.Advisory:
			t.advisory++
		default:
			t.other++
		}
	}
	return t
}
