package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/carry"
	"github.com/agcgate/agc-action/deliver"
	"github.com/agcgate/agc-action/fingerprint"
	"github.com/agcgate/agc-action/ghapi"
	"github.com/agcgate/agc-action/internal/ghrun"
	"github.com/agcgate/agc-action/internal/logsafe"
)

// carryGithubOptions are the arguments of "agc-sarif carry --github".
type carryGithubOptions struct {
	on          bool
	gate        string
	appID       int64
	repository  string // OWNER/NAME
	owner, name string
	pr          int
	sha         string
	before      string
	token       string
	scope       []string // --scope patterns, when no --scope-file
}

// flags declares the --github flags on fs, with the workflow's event as
// their defaults.
func (g *carryGithubOptions) flags(e *Env, fs *flag.FlagSet, ev ghrun.Context) {
	fs.BoolVar(&g.on, "github", false, "carry the gate's check run on GitHub from the pull request's earlier head (docs/fingerprint.md)")
	fs.StringVar(&g.gate, "gate", "", "with --github: the gate id (its check run is agc/<id>)")
	fs.Int64Var(&g.appID, "app-id", carry.ActionsAppID, "with --github: trust only check runs written by this GitHub App (default: GitHub Actions on github.com)")
	fs.StringVar(&g.repository, "repository", ev.Repository, "with --github: OWNER/NAME (default $GITHUB_REPOSITORY)")
	fs.IntVar(&g.pr, "pr", ev.PR, "with --github: the pull request (default from $GITHUB_EVENT_PATH)")
	fs.StringVar(&g.sha, "sha", ev.HeadSHA, "with --github: the new head, where a carried check run is posted")
	fs.StringVar(&g.before, "before", ev.BeforeSHA, "with --github: the previous head (default the synchronize event's before)")
	fs.Var((*fpList)(&g.scope), "scope", "with --github, instead of --scope-file: a scope pattern; repeat for more")
}

// checkGithub validates --github mode and fills the defaults that depend
// on other flags.
func (o *carryOptions) checkGithub(e *Env, ev ghrun.Context) error {
	g := &o.gh
	g.token = e.Getenv("GITHUB_TOKEN")
	if o.base == "" {
		o.base = ev.BaseSHA
	}
	var err error
	g.owner, g.name, err = ghrun.SplitRepo("--repository", g.repository)
	switch {
	case err != nil:
		return err
	case o.previous != "" || o.previousRev != "":
		return errors.New("with --github, the previous response is read from the earlier head's check run")
	case g.gate == "":
		return errors.New("--github needs --gate")
	case agc.CheckGateID(g.gate) != nil:
		return fmt.Errorf("--gate: %v", agc.CheckGateID(g.gate))
	case g.sha == "":
		return errors.New("--github needs --sha (or GITHUB_SHA, or a pull request event)")
	case g.pr <= 0 && g.before == "":
		return errors.New("--github needs --pr or --before (or a pull_request event)")
	case o.scopeFile == "" && len(g.scope) == 0:
		return errors.New("--github needs --scope-file or --scope: the workflow, never the answer, says what a verdict covers")
	case o.scopeFile != "" && len(g.scope) > 0:
		return errors.New("--scope-file and --scope: give one")
	case o.scopeFile != "" && o.base == "":
		return errors.New("--scope-file needs --base (or a pull_request event): the scope is read from the base branch")
	case g.token == "":
		return errors.New("GITHUB_TOKEN is not set")
	}
	return nil
}

// carryGithub carries the gate's verdict on GitHub and prints
// carried=true|false and reason=… (for $GITHUB_OUTPUT), and the changed
// entries on standard error. Exit 0 whether or not it carried; 2 when it
// could not tell.
func carryGithub(e *Env, o *carryOptions) int {
	g := &o.gh
	c, err := ghapi.NewFromEnv(e.Getenv, ghapi.Config{Owner: g.owner, Repo: g.name, Token: g.token}, nil)
	if err != nil {
		return fpFail(e, "carry", err)
	}
	repo := &fingerprint.Git{Dir: o.repo}
	defer repo.Close()
	rev, err := repo.Commit(context.Background(), o.rev)
	if err != nil {
		return fpFail(e, "carry", err)
	}
	w, err := carry.ReadWorkflow(context.Background(), repo, carry.ScopeSource{File: o.scopeFile, Base: o.base, Patterns: g.scope,
		FileName: "--scope-file", PatternsName: "--scope"}, o.configs)
	if err != nil {
		return fpFail(e, "carry", err)
	}
	res, err := carry.Gate(context.Background(), deliver.CarryRuns(c), carry.Options{Gate: g.gate, AppID: g.appID, HeadSHA: g.sha, Rev: rev,
		Before: g.before, PR: g.pr, Workflow: w, Compute: carry.RepoFingerprinter(repo), Have: carry.Reachable(repo, "origin")})
	if err != nil {
		return fpFail(e, "carry", err)
	}
	fmt.Fprintf(e.Stdout, "carried=%t\nreason=%s\n", res.Carried, logsafe.Line(oneLine(res.Reason)))
	for _, ch := range res.Changes {
		_ = printLine(e.Stderr, "agc-sarif carry: "+ch)
	}
	return ExitOK
}

// oneLine keeps a value on one line of $GITHUB_OUTPUT. render/clean.go
// has a oneLine too, which shows line breaks as \n instead of folding
// blanks; left for render's owner to export one of them (issue 10, item 4).
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
