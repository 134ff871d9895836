package action

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/render"
	"github.com/agcgate/agc-action/review"
	"github.com/agcgate/agc-action/sarif"
)

// verdictRank orders verdicts from best to worst for the "verdict" output
// and fail-on: a person having to decide is worse than a block.
var verdictRank = map[string]int{agc.Allow: 0, agc.Repaired: 1, agc.Block: 2, agc.Escalate: 3}

// actionOutputs are the step outputs (action.yml).
type actionOutputs struct {
	verdict            string
	blocking, advisory int
	carried            bool
	sarifFile          string
	summaryFile        string
}

// summarize computes the outputs that follow from the answers.
func summarize(gates []agc.Doc, carried map[string]string) actionOutputs {
	o := actionOutputs{verdict: agc.Allow, carried: len(carried) > 0 && len(carried) == len(gates)}
	for _, g := range gates {
		r := g.Response
		if verdictRank[r.Verdict] > verdictRank[o.verdict] {
			o.verdict = r.Verdict
		}
		blocking := len(r.Blocking())
		o.blocking += blocking
		o.advisory += len(r.Findings) - blocking
	}
	return o
}

// exitCode follows fail-on; preview never fails (AGC §11).
func (r *actionRun) exitCode() int {
	if r.cfg.preview || r.cfg.failOn == "never" {
		return cmdenv.ExitOK
	}
	threshold := verdictRank[r.cfg.failOn]
	if verdictRank[r.out.verdict] >= threshold {
		workflowCommand(r.e.Stdout, "error", fmt.Sprintf("verdict %s (fail-on: %s): %d blocking finding(s)", r.out.verdict, r.cfg.failOn, r.out.blocking))
		return cmdenv.ExitFail
	}
	return cmdenv.ExitOK
}

// tempDir is where the Action writes files for later steps.
func (r *actionRun) tempDir() (string, error) {
	base := r.e.Getenv("RUNNER_TEMP")
	if base == "" {
		base = os.TempDir()
	}
	dir := filepath.Join(base, "agc-action")
	return dir, os.MkdirAll(dir, 0o755)
}

// writeSARIF writes every gate's answer as one SARIF log, the sarif-file
// output, for upload-sarif or an artifact.
func (r *actionRun) writeSARIF(gates []agc.Doc) error {
	rs := make([]*agc.Response, len(gates))
	for i, g := range gates {
		rs[i] = g.Response
	}
	dir, err := r.tempDir()
	if err != nil {
		return err
	}
	// The file is what code scanning gets: findings only, one category
	// per gate.
	file := filepath.Join(dir, "results.sarif")
	opt := sarif.WriteOptions{FS: r.src, FindingsOnly: true, Category: r.cfg.category}
	if err := writeSARIFFile(file, rs, opt); err != nil {
		var le *sarif.LimitError
		if errors.As(err, &le) {
			return err
		}
		return fmt.Errorf("SARIF: %w", err)
	}
	r.out.sarifFile = file
	return nil
}

// writeSummary writes the job summary: a table of gates, then each gate's
// answer as its check run shows it (review.JobSummaries), cut within 1 MiB. It goes to GITHUB_STEP_SUMMARY and to
// the summary-file output.
func (r *actionRun) writeSummary(gates []agc.Doc, carried, notes map[string]string, degraded bool, head review.FileReader) error {
	var b bytes.Buffer
	title := "AGC gates: " + r.out.verdict
	if r.cfg.preview {
		title += " (preview: nothing was written to GitHub)"
	}
	fmt.Fprintf(&b, "## %s\n\n", title)
	if degraded {
		b.WriteString("> **The token cannot write to this repository** (a pull request from a fork, or missing permissions). Check runs, reviews and uploads were not posted; every finding is reported here and as workflow annotations.\n\n")
	}
	b.WriteString("| Gate | Verdict | Blocking | Advisory | Round | Carried |\n|---|---|---|---|---|---|\n")
	for _, g := range gates {
		resp := g.Response
		blocking := len(resp.Blocking())
		c := "no"
		if from, ok := carried[resp.Gate.ID]; ok {
			c = "from " + render.CodeSpan(from)
		}
		fmt.Fprintf(&b, "| agc/%s | %s | %d | %d | %d of %d | %s |\n", render.Escape(resp.Gate.ID), render.Escape(resp.Verdict),
			blocking, len(resp.Findings)-blocking, resp.Attempt.N, resp.Attempt.Budget, c)
	}
	summary := review.JobSummaries(b.String(), gates, notes, head, r.links(),
		"every finding is in the SARIF file (output sarif-file), and each gate's check run lists those its review does not show or says where they are")
	dir, err := r.tempDir()
	if err != nil {
		return err
	}
	r.out.summaryFile = filepath.Join(dir, "summary.md")
	if err := os.WriteFile(r.out.summaryFile, []byte(summary), 0o644); err != nil {
		return err
	}
	if r.e.Getenv("GITHUB_STEP_SUMMARY") == "" {
		return nil
	}
	return fileCommand(func() { r.a.AddStepSummary(summary) })
}

// setOutputs writes the step outputs to GITHUB_OUTPUT.
func (r *actionRun) setOutputs() {
	if r.e.Getenv("GITHUB_OUTPUT") == "" {
		return
	}
	o := r.out
	for _, kv := range [][2]string{
		{"verdict", o.verdict},
		{"blocking", strconv.Itoa(o.blocking)},
		{"advisory", strconv.Itoa(o.advisory)},
		{"carried", strconv.FormatBool(o.carried)},
		{"sarif-file", o.sarifFile},
		{"summary-file", o.summaryFile},
	} {
		if err := fileCommand(func() { r.a.SetOutput(kv[0], kv[1]) }); err != nil {
			r.warn("output " + kv[0] + ": " + err.Error())
		}
	}
}

// fileCommand runs a go-githubactions file command, which panics when it
// cannot write its file, and returns that as an error.
func fileCommand(f func()) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	f()
	return nil
}
