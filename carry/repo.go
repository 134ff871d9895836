package carry

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/agcgate/agc-action/subject"
)

// Fingerprinter computes the scoped fingerprint o asks for.
type Fingerprinter func(ctx context.Context, o subject.Options) (*subject.Result, error)

// RepoFingerprinter fingerprints revisions of repo, lazily
// (subject.Options.Lazy): carrying needs the entries only to name what
// changed.
func RepoFingerprinter(repo subject.Repo) Fingerprinter {
	return func(ctx context.Context, o subject.Options) (*subject.Result, error) {
		o.Lazy = true
		return subject.Compute(ctx, repo, o)
	}
}

// ScopeSource is where a workflow takes the scope from: a scope file read
// at Base (the base branch, never the commit judged: a pull request cannot
// shrink the scope it is judged on), else Patterns. Neither: no scope.
type ScopeSource struct {
	File, Base string
	Patterns   []string
	// Names are how the inputs are called, for messages ("scope-file",
	// "scope" by default).
	FileName, PatternsName string
}

// ReadWorkflow resolves the workflow's scope in repo and pairs it with the
// gate's configuration files. With no scope file and no patterns it
// returns a Workflow that is not Defined: nothing is bound or carried.
func ReadWorkflow(ctx context.Context, repo subject.Repo, src ScopeSource, configs []string) (Workflow, error) {
	fileName, patternsName := src.FileName, src.PatternsName
	if fileName == "" {
		fileName, patternsName = "scope-file", "scope"
	}
	w := Workflow{GateConfigs: configs}
	switch {
	case src.File != "" && src.Base == "":
		return w, fmt.Errorf("%s %s: no base revision to read it from", fileName, src.File)
	case src.File != "":
		s, err := subject.ReadScopeFile(ctx, repo, src.Base, src.File)
		if err != nil {
			return w, err
		}
		w.Scope, w.ScopeFrom = s, fmt.Sprintf("%s %s at %s", fileName, src.File, src.Base)
	case len(src.Patterns) > 0:
		s, err := subject.ParseScope(src.Patterns)
		if err != nil {
			return w, fmt.Errorf("%s: %w", patternsName, err)
		}
		w.Scope, w.ScopeFrom = s, patternsName
	}
	return w, nil
}

// Commits is the git plumbing JudgedRev needs (fingerprint.Git).
type Commits interface {
	Commit(ctx context.Context, rev string) (string, error)
	Parents(ctx context.Context, rev string) ([]string, error)
}

// JudgedRev returns the revision whose tree stands for commit sha, the one
// reported on: HEAD when the checkout is sha or its merge with the base
// (the default pull_request checkout, whose parent is sha, as the commit
// object says even in a shallow clone); else sha itself when the clone
// holds it. Anything else, such as the default branch a workflow_run or
// pull_request_target workflow checks out, is not what the gates judged,
// and it is an error. An empty sha is HEAD.
func JudgedRev(ctx context.Context, g Commits, sha string) (string, error) {
	head, err := g.Commit(ctx, "HEAD")
	if err != nil {
		return "", err
	}
	if sha == "" || head == sha {
		return "HEAD", nil
	}
	if parents, err := g.Parents(ctx, "HEAD"); err == nil && slices.Contains(parents, sha) {
		return "HEAD", nil
	}
	if c, err := g.Commit(ctx, sha); err == nil && c == sha {
		return sha, nil
	}
	return "", fmt.Errorf("the checkout (%s) is neither the commit reported on (%s) nor its merge, and the clone does not hold that commit", Short(head), Short(sha))
}

// Objects is the git plumbing that recomputing at the commit judged needs:
// whether the clone holds a commit, and fetching one by its id
// (fingerprint.Git).
type Objects interface {
	HasCommit(ctx context.Context, sha string) bool
	FetchCommit(ctx context.Context, remote, sha string) error
}

// Reachable returns an Input.Have over g: nil when the clone holds the
// commit, or holds it once fetched by its id from remote ("" fetches
// nothing); otherwise why not.
func Reachable(g Objects, remote string) func(ctx context.Context, sha string) error {
	return func(ctx context.Context, sha string) error {
		if g.HasCommit(ctx, sha) {
			return nil
		}
		if remote == "" {
			return fmt.Errorf("%s is not in the clone", Short(sha))
		}
		if err := g.FetchCommit(ctx, remote, sha); err != nil {
			return fmt.Errorf("%s is not in the clone and was not fetched: %w", Short(sha), err)
		}
		if !g.HasCommit(ctx, sha) {
			return fmt.Errorf("%s is not in the clone, even fetched", Short(sha))
		}
		return nil
	}
}

// PreviousHeads lists the earlier heads to look at, newest first: before
// (the synchronize event's), then the pull request's commits (oldest first,
// as GitHub lists them) from the newest, leaving out head, zero ids and
// repeats, at most max of them (max <= 0: no bound).
func PreviousHeads(head, before string, prCommits []string, max int) []string {
	var out []string
	add := func(sha string) {
		if sha == "" || sha == head || strings.Trim(sha, "0") == "" || slices.Contains(out, sha) {
			return
		}
		if max <= 0 || len(out) < max {
			out = append(out, sha)
		}
	}
	add(before)
	for i := len(prCommits) - 1; i >= 0; i-- {
		add(prCommits[i])
	}
	return out
}
