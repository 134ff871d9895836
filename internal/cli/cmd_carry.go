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
	return carryLocal(e, g, o, prev, name)
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

// carryLocal carries prev, the response in file name, to --rev, or says
// why not.
func carryLocal(e *Env, g *fingerprint.Git, o *carryOptions, prev *agc.Response, name string) int {
	ctx := context.Background()
	prevScope, err := subject.ParseScope(prev.Subject.Scope)
	if err != nil {
		return fpFail(e, "carry", fmt.Errorf("%s: /subject/scope: %w", name, err))
	}
	scope := prevScope
	if o.scopeFile != "" {
		if scope, err = subject.ReadScopeFile(ctx, g, o.base, o.scopeFile); err != nil {
			return fpFail(e, "carry", err)
		}
	}
	at := func(rev string, scope subject.Scope) (*subject.Result, error) {
		return carry.RepoFingerprinter(g)(ctx, subject.Options{Rev: rev, Scope: scope,
			GateID: prev.Gate.ID, GateVersion: prev.Gate.Version, GateConfigs: o.configs})
	}
	now, err := at(o.rev, scope)
	if err != nil {
		return fpFail(e, "carry", err)
	}
	var then *subject.Result
	judged := ""
	if o.previousRev != "" {
		if then, err = at(o.previousRev, prevScope); err != nil {
			return fpFail(e, "carry", err)
		}
		judged = then.Commit
	}
	j := carry.Judged{Fingerprint: prev.Subject.Fingerprint, Scope: prevScope, At: then}
	if d := carry.Decide(j, now); !d.Carried {
		_ = printLine(e.Stderr, "agc-sarif carry: not carried to "+now.Commit+":")
		for _, why := range notCarried(d, j, now, name, o.base) {
			_ = printLine(e.Stderr, "  "+why)
		}
		return ExitFail
	}
	out, err := carry.Forward(prev, judged, now.Commit)
	if err != nil {
		return fpFail(e, "carry", fmt.Errorf("%s: %w", name, err))
	}
	b, err := agc.Encode(out)
	if err == nil {
		err = writeOut(e, b, false)
	}
	if err != nil {
		return fpFail(e, "carry", err)
	}
	return ExitOK
}

// notCarried says, one line each, why the verdict judged (j), of the
// response in file name, is not carried to now (d); base is where the
// scope now was read.
func notCarried(d carry.Decision, j carry.Judged, now *subject.Result, name, base string) []string {
	want, then := j.Fingerprint, j.At
	var out []string
	if d.Stale {
		out = append(out, fmt.Sprintf("%s: /subject/fingerprint %s is not the fingerprint of %s (%s): the verdict was judged on other content, another gate config or another algorithm",
			logsafe.Name(name), want, then.Commit, then.Fingerprint))
	}
	if d.ScopeChanged {
		out = append(out, fmt.Sprintf("the scope changed: %s at %s, the response has %s", quoteAll(now.Scope.Patterns()), base, quoteAll(j.Scope.Patterns())))
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
