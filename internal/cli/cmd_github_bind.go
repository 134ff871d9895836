package cli

import (
	"context"
	"flag"
	"fmt"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/carry"
	"github.com/agcgate/agc-action/fingerprint"
	"github.com/agcgate/agc-action/internal/ghrun"
	"github.com/agcgate/agc-action/internal/logsafe"
)

// githubBind are the flags with which "agc-sarif github" binds answers to
// scoped fingerprints, so that "carry --github" can carry them: the scope
// is the caller's (the workflow's), never an answer's own.
type githubBind struct {
	scope     []string
	scopeFile string
	base      string
	configs   []string
}

func (b *githubBind) flags(fs *flag.FlagSet, rc ghrun.Context) {
	fs.Var((*fpList)(&b.scope), "scope", "bind answers about repository content to the scoped fingerprint of --sha in --root over this pattern (repeat for more), so that carry --github can carry them")
	fs.StringVar(&b.scopeFile, "scope-file", "", "bind over the scope file at this repo path, read at --base, instead of --scope")
	fs.StringVar(&b.base, "base", rc.BaseSHA, "the revision (the base branch) to read --scope-file from (default the pull request's base)")
	fs.Var((*fpList)(&b.configs), "gate-config", "with --scope or --scope-file: a repo path of a gate configuration file, bound too; repeat for more")
}

func (b *githubBind) check() error {
	switch {
	case b.scopeFile != "" && len(b.scope) > 0:
		return fmt.Errorf("--scope-file and --scope: give one")
	case b.scopeFile != "" && b.base == "":
		return fmt.Errorf("--scope-file needs --base (or a pull_request event): the scope is read from the base branch")
	case len(b.configs) > 0 && b.scopeFile == "" && len(b.scope) == 0:
		return fmt.Errorf("--gate-config binds only with --scope or --scope-file")
	}
	return nil
}

// bindGithub binds each answer about repository content to the scoped
// fingerprint of sha in the checkout root, over the scope the flags give,
// and returns the binding records by gate id, for the check runs. Without
// --scope or --scope-file nothing is bound (and nothing posted can be
// carried), and only the gates of files given as GATE-ID=FILE are bound:
// an unpaired file may answer for any gate, so what it says is posted but
// never carried (docs/security.md, case 3). An answer that cannot be
// bound is posted without a record, with a warning.
func bindGithub(ctx context.Context, e *Env, b githubBind, root, sha string, gates []agc.Doc, paired map[string]bool, unpaired []string) (map[string]carry.Binding, error) {
	if b.scopeFile == "" && len(b.scope) == 0 {
		return nil, nil
	}
	g := &fingerprint.Git{Dir: root}
	defer g.Close()
	w, err := carry.ReadWorkflow(ctx, g, carry.ScopeSource{File: b.scopeFile, Base: b.base, Patterns: b.scope,
		FileName: "--scope-file", PatternsName: "--scope"}, b.configs)
	if err != nil {
		return nil, err
	}
	rev, err := carry.JudgedRev(ctx, g, sha)
	if err != nil {
		return nil, fmt.Errorf("bind to --sha: %w", err)
	}
	for _, f := range unpaired {
		_ = printLine(e.Stderr, fmt.Sprintf("agc-sarif github: warning: %s is not paired with a gate (GATE-ID=FILE), so its answers are posted but not bound, and can never be carried", logsafe.Name(f)))
	}
	var bind []agc.Doc
	for _, d := range gates {
		if paired[d.Response.Gate.ID] {
			bind = append(bind, d)
		}
	}
	out, errs := carry.BindAll(ctx, carry.RepoFingerprinter(g), w, sha, rev, bind)
	for _, err := range errs {
		_ = printLine(e.Stderr, fmt.Sprintf("agc-sarif github: warning: not bound to a scoped fingerprint, so it can never be carried: %v", err))
	}
	return out, nil
}
