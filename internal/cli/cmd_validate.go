package cli

import (
	"bytes"
	"fmt"
	"io"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/validate"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

type validateOptions struct {
	chain    bool
	format   *enumFlag
	maxBytes int64
	attempt  attemptFlag
	files    []string
}

func parseValidate(e *Env, args []string) (*validateOptions, int, bool) {
	o := &validateOptions{format: newEnum("text", "text", "json", "agc", "sarif")}
	fs := newFlags(e, "validate", "[--chain] [--format text|json|agc|sarif] [--max-bytes N] FILE...")
	fs.BoolVar(&o.chain, "chain", false, "treat the responses, in order, as the rounds of one chain (§9); files may also hold a JSON array or JSON Lines")
	fs.Var(o.format, "format", "output: text, json (a list), agc (an AGC response from gate agc-validate) or sarif")
	fs.Int64Var(&o.maxBytes, "max-bytes", agc.DefaultMaxBytes, "refuse an input larger than this many bytes")
	fs.Var(&o.attempt, "attempt", "with --format agc|sarif: this validation's round in its chain, as N/BUDGET (default 1/3)")
	files, code, ok := parseArgs(fs, args)
	if !ok {
		return nil, code, false
	}
	if len(files) == 0 {
		fmt.Fprintln(e.Stderr, "agc-sarif validate: no input files (use - for standard input)")
		fs.Usage()
		return nil, ExitUsage, false
	}
	o.files = files
	return o, 0, true
}

func runValidate(e *Env, args []string) int {
	o, code, ok := parseValidate(e, args)
	if !ok {
		return code
	}
	var inputs []validate.Input
	unreadable := 0
	for _, f := range o.files {
		data, err := e.ReadInput(f, o.maxBytes)
		if err != nil {
			// Say so, and still validate the others: one missing file must
			// not hide the violations of the rest.
			printError(e, "validate", err)
			unreadable++
			continue
		}
		inputs = append(inputs, validate.Input{File: cmdenv.DisplayName(f), Data: data})
	}
	vs := validate.Inputs(inputs, validate.Options{Limits: agc.Limits{MaxBytes: o.maxBytes}, Chain: o.chain})
	if err := writeViolations(e, o, inputs, vs, unreadable); err != nil {
		printError(e, "validate", err)
		return ExitUsage
	}
	switch {
	case unreadable > 0:
		return ExitUsage
	case validate.HasErrors(vs):
		return ExitFail
	}
	return ExitOK
}

// writeViolations prints the violations in o's format: text lines through
// printViolation, JSON through writeOut, which keeps "##[" from the
// answers' text out of the log while the JSON stays the same. notRead
// files could not be read (their errors are on stderr): the text's last
// line counts them, and says "ok" only when every file was read and
// passes.
func writeViolations(e *Env, o *validateOptions, inputs []validate.Input, vs []validate.Violation, notRead int) error {
	w := e.Stdout
	var buf bytes.Buffer
	switch o.format.value {
	case "json":
		if err := writeViolationsJSON(&buf, vs); err != nil {
			return err
		}
		return writeOut(e, buf.Bytes(), false)
	case "agc", "sarif":
		r := validate.AsResponse(inputs, vs, validate.GateOptions{Chain: o.chain, N: o.attempt.n, Budget: o.attempt.budget})
		if o.format.value == "sarif" {
			if err := writeSARIF(&buf, []*agc.Response{r}); err != nil {
				return err
			}
			return writeOut(e, buf.Bytes(), false)
		}
		b, err := agc.Encode(r)
		if err != nil {
			return err
		}
		return writeOut(e, b, false)
	}
	for _, v := range vs {
		if err := printViolation(w, v); err != nil {
			return err
		}
	}
	if len(vs) == 0 {
		var err error
		switch {
		case notRead == 0:
			_, err = fmt.Fprintf(w, "ok: %d file(s) valid\n", len(inputs))
		case len(inputs) > 0:
			_, err = fmt.Fprintf(w, "%d file(s) valid, %d not read\n", len(inputs), notRead)
		}
		return err
	}
	errs, lints := validate.Count(vs)
	line := fmt.Sprintf("%d error(s), %d lint", errs, lints)
	if notRead > 0 {
		line += fmt.Sprintf("; %d file(s) not read", notRead)
	}
	_, err := fmt.Fprintln(w, line)
	return err
}

// violationJSON is the plain list form of --format json.
type violationJSON struct {
	File     string `json:"file"`
	Line     int    `json:"line,omitzero"`
	Column   int    `json:"column,omitzero"`
	Pointer  string `json:"pointer"`
	Offset   *int64 `json:"offset,omitzero"`
	Rule     string `json:"rule"`
	Section  string `json:"section"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
}

func writeViolationsJSON(w io.Writer, vs []validate.Violation) error {
	out := make([]violationJSON, 0, len(vs))
	for _, v := range vs {
		j := violationJSON{File: v.File, Line: v.Line, Column: v.Column, Pointer: v.Pointer, Rule: v.Rule, Section: v.Section, Severity: v.Severity.String(), Message: v.Message}
		if v.HasOffset() {
			off := v.Offset
			j.Offset = &off
		}
		out = append(out, j)
	}
	b, err := json.Marshal(out, jsontext.WithIndent("  "))
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// attemptFlag parses N/BUDGET.
type attemptFlag struct{ n, budget int }

func (a *attemptFlag) String() string {
	if a.n == 0 {
		return "1/3"
	}
	return fmt.Sprintf("%d/%d", a.n, a.budget)
}

func (a *attemptFlag) Set(s string) error {
	var n, b int
	if _, err := fmt.Sscanf(s, "%d/%d", &n, &b); err != nil || n < 1 || b < 1 || fmt.Sprintf("%d/%d", n, b) != s {
		return fmt.Errorf("want N/BUDGET with 1 <= N, 1 <= BUDGET, e.g. 2/3")
	}
	a.n, a.budget = n, b
	return nil
}
