package cli

import (
	"context"
	"fmt"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/carry"
	"github.com/agcgate/agc-action/fingerprint"
	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/internal/ghrun"
	"github.com/agcgate/agc-action/internal/logsafe"
	"github.com/agcgate/agc-action/subject"
)

type carryOptions struct {
	previous, previousRev string
	repo, rev             string
	scopeFile, base       string
	configs               []string
	gh                    carryGithubOptions // with --github
}

const carryUsage = "--previous RESPONSE.json [--previous-rev REV] [--repo DIR] [--rev REV] [--scope-file PATH --base REV] [--gate-config PATH]...\n" +
	"       agc-sarif carry --github --gate ID [--app-id N] [--repository OWNER/NAME] [--pr N] [--sha SHA] [--before SHA] " +
	"[--repo DIR] [--rev REV] (--scope-file PATH [--base REV] | --scope P...) [--gate-config PATH]...\n\n" +
	"With --previous, the response is the file you chose, and it is trusted as it is: its subject.fingerprint,\n" +
	"subject.scope and agc-action/carried-from members say what it judged. With --github, the previous verdict is\n" +
	"read only from a check run agc-action wrote, by the app --app-id names: its binding record says what was\n" +
	"judged, the answer's own agc-action/ members and scope count for nothing, and the scope is the one you give.\n"

// runCarry implements "agc-sarif carry": it carries a verdict to a commit
// whose scoped content is unchanged, or names what changed.
func runCarry(e *Env, args []string) int {
	o, code, ok := parseCarry(e, args)
	if !ok {
		return code
	}
	defer e.GCPercent(treeGCPercent)()
	if o.gh.on {
		return carryGithub(e, o)
	}
	prev, code := readResponse(e, "carry", o.previous)
	if prev == nil {
		return code
	}
	name := cmdenv.DisplayName(o.previous)
	if !carry.TreeSubject(prev.Subject.Kind) {
		_ = printLine(e.Stderr, fmt.Sprintf("agc-sarif carry: %s: /subject/kind %s is not a tree subject (diff, commit, pull-request)", name, logsafe.Quote(prev.Subject.Kind)))
		return ExitUsage
	}
	g := &fingerprint.Git{Dir: o.repo}
	defer g.Close()
	c := &carrier{e: e, g: g, o: o, prev: prev, name: name}
	return c.run()
}

func parseCarry(e *Env, args []string) (*carryOptions, int, bool) {
	o := &carryOptions{}
	fs := newFlags(e, "carry", carryUsage)
	fs.StringVar(&o.previous, "previous", "", "the AGC response to carry (- for standard input), trusted as it is: its own subject and agc-action/ members say what it judged")
	fs.StringVar(&o.previousRev, "previous-rev", "", "the commit the previous response was judged on")
	fs.StringVar(&o.repo, "repo", ".", "the repository (a shallow clone is enough without --previous-rev)")
	fs.StringVar(&o.rev, "rev", "HEAD", "the commit to carry the verdict to")
	fs.StringVar(&o.scopeFile, "scope-file", "", "take the scope from this repo path at --base instead of the response")
	fs.StringVar(&o.base, "base", "", "the revision (the base branch) to read --scope-file from")
	fs.Var((*fpList)(&o.configs), "gate-config", "a repo path of a gate configuration file; repeat for more")
	ev, evErr := ghrun.Read(e.Getenv)
	o.gh.flags(e, fs, ev)
	pos, code, ok := parseArgs(fs, args)
	if !ok {
		return nil, code, false
	}
	var err error
	switch {
	case len(pos) > 0:
		err = fmt.Errorf("unexpected arguments")
	case o.gh.on && evErr != nil:
		err = evErr
	case o.gh.on:
		err = o.checkGithub(e, ev)
	case len(o.gh.scope) > 0:
		err = fmt.Errorf("--scope goes with --github (here the scope is the response's own, or --scope-file's)")
	case o.previous == "":
		err = fmt.Errorf("--previous is required")
	case (o.scopeFile == "") != (o.base == ""):
		err = fmt.Errorf("--scope-file and --base go together: the scope is read from the base branch")
	}
	if err != nil {
		_ = printLine(e.Stderr, fmt.Sprintf("agc-sarif carry: %v", err))
		fs.Usage()
		return nil, ExitUsage, false
	}
	return o, 0, true
}

type carrier struct {
	e    *Env
	g    *fingerprint.Git
	o    *carryOptions
	prev *agc.Response
	name string
}

func (c *carrier) run() int {
	ctx := context.Background()
	prevScope, err := subject.ParseScope(c.prev.Subject.Scope)
	if err != nil {
		return fpFail(c.e, "carry", fmt.Errorf("%s: /subject/scope: %w", c.name, err))
	}
	scope := prevScope
	if c.o.scopeFile != "" {
		if scope, err = subject.ReadScopeFile(ctx, c.g, c.o.base, c.o.scopeFile); err != nil {
			return fpFail(c.e, "carry", err)
		}
	}
	now, err := c.compute(c.o.rev, scope)
	if err != nil {
		return fpFail(c.e, "carry", err)
	}
	var then *subject.Result
	if c.o.previousRev != "" {
		if then, err = c.compute(c.o.previousRev, prevScope); err != nil {
			return fpFail(c.e, "carry", err)
		}
	}
	d := carry.Decide(carry.Judged{Fingerprint: c.prev.Subject.Fingerprint, Scope: prevScope, At: then}, now)
	if !d.Carried {
		_ = printLine(c.e.Stderr, "agc-sarif carry: not carried to "+now.Commit+":")
		for _, why := range c.reasons(d, then, now, prevScope) {
			_ = printLine(c.e.Stderr, "  "+why)
		}
		return ExitFail
	}
	return c.emit(then, now)
}

func (c *carrier) compute(rev string, scope subject.Scope) (*subject.Result, error) {
	return subject.Compute(context.Background(), c.g, subject.Options{Rev: rev, Scope: scope,
		GateID: c.prev.Gate.ID, GateVersion: c.prev.Gate.Version, GateConfigs: c.o.configs, Lazy: true})
}

// reasons says, one line each, why the verdict is not carried (d).
func (c *carrier) reasons(d carry.Decision, then, now *subject.Result, prevScope subject.Scope) []string {
	want := c.prev.Subject.Fingerprint
	var out []string
	if d.Stale {
		out = append(out, fmt.Sprintf("%s: /subject/fingerprint %s is not the fingerprint of %s (%s): the verdict was judged on other content, another gate config or another algorithm",
			logsafe.Name(c.name), want, then.Commit, then.Fingerprint))
	}
	if d.ScopeChanged {
		out = append(out, fmt.Sprintf("the scope changed: %s at %s, the response has %s", quoteAll(now.Scope.Patterns()), c.o.base, quoteAll(prevScope.Patterns())))
	}
	if then == nil {
		return append(out, fmt.Sprintf("the fingerprint at %s is %s, the response's is %s (pass --previous-rev to name the entries that changed)",
			now.Commit, now.Fingerprint, want))
	}
	out = append(out, d.Changes...)
	if len(out) == 0 {
		out = append(out, fmt.Sprintf("the fingerprint at %s is %s, the response's is %s", now.Commit, now.Fingerprint, want))
	}
	return out
}

// emit prints the carried response: the previous one with a carry record.
func (c *carrier) emit(then, now *subject.Result) int {
	judged := ""
	if then != nil {
		judged = then.Commit
	}
	out, err := carry.Forward(c.prev, judged, now.Commit)
	if err != nil {
		return fpFail(c.e, "carry", fmt.Errorf("%s: %w", c.name, err))
	}
	b, err := agc.Encode(out)
	if err != nil {
		return fpFail(c.e, "carry", err)
	}
	if err := writeOut(c.e, b, false); err != nil {
		return fpFail(c.e, "carry", err)
	}
	return ExitOK
}
