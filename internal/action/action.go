// Package action is the GitHub Action (action.yml, docs/action.md): one
// run reads its inputs and the event, collects the gates' answers,
// validates them, binds them to scoped fingerprints, carries the verdicts
// it is asked to, delivers to GitHub and reports (the SARIF file, the job
// summary, the step outputs, the exit code). Main is its entry point;
// "agc-sarif action" calls it.
//
// It does I/O: the workspace's files, git (fingerprint.Git), GitHub
// (ghapi), the runner's files (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY,
// RUNNER_TEMP) and the log it is given.
package action

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/carry"
	"github.com/agcgate/agc-action/deliver"
	"github.com/agcgate/agc-action/fingerprint"
	"github.com/agcgate/agc-action/formats"
	"github.com/agcgate/agc-action/ghapi"
	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/internal/collect"
	"github.com/agcgate/agc-action/internal/ghrun"
	"github.com/agcgate/agc-action/internal/logsafe"
	"github.com/agcgate/agc-action/review"
	"github.com/agcgate/agc-action/sarif"
	"github.com/agcgate/agc-action/validate"
	githubactions "github.com/sethvargo/go-githubactions"
)

// Main runs the Action as the runner starts it ("agc-sarif action"): the
// inputs from the INPUT_* variables, the event from GITHUB_EVENT_PATH, the
// log (workflow commands) on e.Stdout; it answers through the job
// summary, the step outputs, and GitHub: check runs, a review, statuses,
// code scanning. It returns the exit code: 1 when the worst verdict
// reaches fail-on, 2 on bad inputs or a failed delivery.
func Main(ctx context.Context, e *cmdenv.Env) int {
	in, err := ReadInputs(e.Getenv)
	if err != nil {
		workflowCommand(e.Stdout, "error", err.Error())
		return cmdenv.ExitUsage
	}
	return Run(ctx, e, in)
}

// Run runs the Action with the inputs in, as Main does.
func Run(ctx context.Context, e *cmdenv.Env, in *Inputs) int {
	a := githubactions.New(githubactions.WithGetenv(e.Getenv), githubactions.WithWriter(e.Stdout))
	run, err := newActionRun(e, a, in)
	if err != nil {
		workflowCommand(e.Stdout, "error", err.Error())
		return cmdenv.ExitUsage
	}
	return run.exec(ctx)
}

// actionRun is one execution of the Action.
type actionRun struct {
	e    *cmdenv.Env
	a    *githubactions.Action
	cfg  *Inputs
	rc   ghrun.Context
	root string // the workspace: sources, globs, relative paths
	// src is root opened once as a source root (cmdenv.SourceFS), through
	// which every file of the workspace is read; srcErr why it could not
	// be opened (src is then empty).
	src    fs.FS
	srcErr error
	reg    *formats.Registry
	out    actionOutputs
}

func newActionRun(e *cmdenv.Env, a *githubactions.Action, cfg *Inputs) (*actionRun, error) {
	rc, err := ghrun.Read(e.Getenv)
	if err != nil {
		return nil, err
	}
	if cfg.pr > 0 {
		rc.PR, rc.Ref = cfg.pr, fmt.Sprintf("refs/pull/%d/head", cfg.pr)
	}
	if cfg.sha != "" {
		rc.HeadSHA = cfg.sha
	}
	root := e.Getenv("GITHUB_WORKSPACE")
	if root == "" {
		root = "."
	}
	if root, err = filepath.Abs(root); err != nil {
		return nil, err
	}
	r := &actionRun{e: e, a: a, cfg: cfg, rc: rc, root: root, reg: formats.Default()}
	if r.src, r.srcErr = cmdenv.SourceFS(root); r.srcErr != nil {
		r.src = cmdenv.EmptyFS{}
	}
	return r, nil
}

func (r *actionRun) exec(ctx context.Context) int {
	if r.rc.Event == "issue_comment" {
		return r.decideOnComment(ctx) // decide.go: a person decides
	}
	if r.rc.Deleted && r.rc.HeadSHA == "" {
		// GITHUB_SHA is then the default branch's head, which nothing was
		// pushed to, and GITHUB_REF the ref that is gone.
		workflowCommand(r.e.Stdout, "notice", "skipped: this push deleted "+r.rc.Ref+", so there is no commit to report on; nothing is posted or uploaded")
		r.setOutputs()
		return cmdenv.ExitOK
	}
	if r.rc.Event == "pull_request_target" {
		r.warn("running on pull_request_target: this workflow has a write token; it must never check out or run the pull request's code (see README, \"Forks\")")
	}
	c, err := r.collect()
	if err != nil {
		workflowCommand(r.e.Stdout, "error", err.Error())
		return cmdenv.ExitUsage
	}
	for _, l := range c.Lint.Lines() {
		r.warn(l.String())
	}
	gh, why, err := r.client()
	if err != nil {
		workflowCommand(r.e.Stdout, "error", err.Error())
		return cmdenv.ExitUsage
	}
	notes := r.countRounds(ctx, gh, why, c)
	gates := r.withValidator(c)
	g := r.repo(ctx)
	var bound binding
	if g != nil {
		defer g.Close()
		bound = r.bindAnswers(ctx, g, gates)
	}
	carried, err := r.carryIfAsked(ctx, gh, why, g, bound, c)
	if err != nil {
		workflowCommand(r.e.Stdout, "error", err.Error())
		return cmdenv.ExitUsage
	}
	all := gates
	from := map[string]string{}
	for _, cg := range carried {
		all = append(all, cg.gate)
		from[cg.gate.Response.Gate.ID] = cg.from
	}
	r.out = summarize(all, from)
	r.out.carried = len(r.cfg.gates) > 0 && len(carried) == len(r.cfg.gates)
	if err := r.writeSARIF(all); err != nil {
		workflowCommand(r.e.Stdout, "error", err.Error())
		return cmdenv.ExitUsage
	}
	head := review.CachedFiles(r.headFiles(ctx, g)) // summaries read them too
	degraded, derr := r.deliver(ctx, gh, why, gates, bound.records, notes, head, deliver.Clone(g))
	if err := r.writeSummary(all, from, notes, degraded, head); err != nil {
		r.warn("job summary: " + err.Error())
	}
	r.setOutputs()
	if derr != nil {
		workflowCommand(r.e.Stdout, "error", "delivery to GitHub failed: "+derr.Error())
		return cmdenv.ExitUsage
	}
	return r.exitCode()
}

// carryIfAsked carries the gates the gate input names, when carrying is
// on. A gate that cannot be carried is not an error: it must run again.
func (r *actionRun) carryIfAsked(ctx context.Context, gh *ghapi.Client, why string, g *fingerprint.Git, b binding, c *collect.Set) ([]carriedGate, error) {
	on, err := r.carryOn()
	switch {
	case err != nil:
		return nil, err
	case !on:
		return nil, nil
	case g == nil:
		return nil, errNoRepo
	case b.rev == "":
		return nil, nil // bindAnswers said why
	case !b.w.Defined():
		r.warn("not carrying: " + carry.ErrNoScope.Error())
		return nil, nil
	case gh == nil:
		r.warn("not carrying: " + why)
		return nil, nil
	case r.rc.PR == 0 && r.rc.BeforeSHA == "" && r.rc.QueuedPR == 0:
		r.warn("not carrying: this event has no earlier head (carrying works on a pull request's new head, a merge group and a push)")
		return nil, nil
	}
	// A gate answered in this run is judged afresh, not carried.
	var ids []string
	for _, id := range r.cfg.gates {
		if _, answered := c.Source[id]; answered {
			fmt.Fprintf(r.e.Stdout, "carry %s: answered in this run, not carried\n", logsafe.Name(id))
			continue
		}
		ids = append(ids, id)
	}
	carried, notCarried := r.carry(ctx, gh, g, b, ids)
	if len(notCarried) > 0 {
		fmt.Fprintf(r.e.Stdout, "not carried, must run again: %s\n", logsafe.Line(strings.Join(notCarried, ", ")))
	}
	return carried, nil
}

// collect reads every answer the inputs name.
func (r *actionRun) collect() (*collect.Set, error) {
	c := collect.New(r.cfg.pairedGate)
	c.Formats = r.reg
	if r.srcErr == nil {
		c.FS, c.Root = r.src, filepath.ToSlash(r.root)
	}
	r.warnUnpaired("agc", r.cfg.agc, "the gate id it names itself")
	files, err := expand(r.src, r.root, r.cfg.agc)
	if err != nil {
		return nil, &inputError{"agc", err.Error()}
	}
	for _, f := range files {
		data, err := r.readWorkspace(f.path, agc.DefaultMaxBytes)
		if err != nil {
			return nil, err
		}
		if int64(len(data)) > agc.DefaultMaxBytes {
			c.TooLarge(relName(r.root, f.path), data)
			continue
		}
		c.File(relName(r.root, f.path), data, f.gate)
	}
	r.warnUnpaired("sarif", r.cfg.sarif, "a gate id made from its tool's name")
	logs, err := expand(r.src, r.root, r.cfg.sarif)
	if err != nil {
		return nil, &inputError{"sarif", err.Error()}
	}
	for _, f := range logs {
		if err := r.collectSARIF(c, f); err != nil {
			return nil, err
		}
	}
	c.AddUnpairedRuns()
	if err := r.collectDiffs(c); err != nil {
		return nil, err
	}
	c.PlaceRefusals()
	return c, nil
}

// warnUnpaired recommends pairing each line of input that pairs its files
// with no gate: their answers are posted under whatever gate they name,
// and never carried.
func (r *actionRun) warnUnpaired(input string, ps []collect.Pattern, named string) {
	for _, p := range ps {
		if p.Gate == "" {
			r.warn(fmt.Sprintf("input %q: line %q pairs its files with no gate, so each answer in them is posted under %s and is never carried; "+
				"pair the line with the gate it answers (GATE-ID=%s), see docs/action.md", input, p.String(), named, p.String()))
		}
	}
}

// readWorkspace reads an input file: inside the workspace through the
// source root, so a symlink cannot lead out of it; an absolute path the
// workflow names outside it, as it is. At most max+1 bytes are read.
func (r *actionRun) readWorkspace(file string, max int64) ([]byte, error) {
	rel, err := filepath.Rel(r.root, file)
	if err != nil || !filepath.IsLocal(rel) {
		return r.e.ReadInput(file, max)
	}
	if r.srcErr != nil {
		return nil, r.srcErr
	}
	f, err := r.src.Open(filepath.ToSlash(rel))
	if err != nil {
		// Named once, by its path in the workspace, as the open that
		// failed (the FS's own operation, a stat, is no help).
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, &fs.PathError{Op: "open", Path: rel, Err: err}
	}
	defer f.Close()
	return cmdenv.ReadAll(rel, io.LimitReader(f, max+1))
}

// collectSARIF gates a SARIF log through the bridge: each run becomes one
// deterministic gate's answer.
func (r *actionRun) collectSARIF(c *collect.Set, f inputFile) error {
	data, err := r.readWorkspace(f.path, sarif.DefaultMaxBytes)
	if err != nil {
		return err
	}
	name := relName(r.root, f.path)
	runs, lints, err := cmdenv.GateSARIF(name, data, r.root, r.cfg.failLevel)
	if err != nil {
		return fmt.Errorf("input \"sarif\": %w", err)
	}
	c.Lint.AddAll(lints)
	reread := func() ([]byte, error) { return r.readWorkspace(f.path, sarif.DefaultMaxBytes) }
	c.SARIF(name, reread, f.gate, runs)
	return nil
}

// withValidator adds the validator's own answer as gate agc-validate when
// AGC documents were given, so an invalid answer fails a check of its own
// and every violation is delivered like any finding.
func (r *actionRun) withValidator(c *collect.Set) []agc.Doc {
	if len(c.Checks) == 0 && len(c.Vs) == 0 {
		return c.Gates
	}
	inputs := c.Checks
	if len(inputs) == 0 {
		inputs = []validate.Input{{File: "inputs"}}
	}
	v := validate.AsResponse(inputs, c.Vs, validate.GateOptions{})
	raw, _ := agc.Encode(v)
	return append(c.Gates, agc.Doc{Response: v, Raw: raw})
}

// warn prints a workflow warning.
func (r *actionRun) warn(msg string) { workflowCommand(r.e.Stdout, "warning", msg) }

// workflowCommand prints ::name title=agc-action::msg, escaped.
func workflowCommand(w io.Writer, name, msg string) {
	c := githubactions.Command{Name: name, Message: msg, Properties: githubactions.CommandProperties{"title": "agc-action"}}
	fmt.Fprintln(w, c.String())
}
