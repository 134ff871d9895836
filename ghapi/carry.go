package ghapi

import (
	"context"
	"errors"
	"fmt"

	"github.com/agcgate/agc-action/carry"
	"github.com/agcgate/agc-action/review"
	"github.com/google/go-github/v62/github"
)

// CarryRuns is the client as package carry sees it: check runs listed by
// name with the app that wrote them and their embedded responses, carried
// runs created, a pull request's commits listed. The policy (which heads,
// which runs are trusted) is carry.Gate's.
type CarryRuns struct{ c *Client }

var _ carry.GitHub = (*CarryRuns)(nil)

// CarryRuns returns c as carry.GitHub.
func (c *Client) CarryRuns() *CarryRuns { return &CarryRuns{c: c} }

// List returns the check runs named name on sha, of every app, all pages
// (filter=all: GitHub's default "latest" would hide our run behind a later
// one of the same name).
func (r *CarryRuns) List(ctx context.Context, sha, name string) ([]carry.CheckRun, error) {
	opt := &github.ListCheckRunsOptions{CheckName: github.String(name), Filter: github.String("all"),
		ListOptions: github.ListOptions{PerPage: perPage}}
	var out []carry.CheckRun
	for run, err := range pages(&opt.ListOptions, func() ([]*github.CheckRun, *github.Response, error) {
		res, resp, err := r.c.gh.Checks.ListCheckRunsForRef(ctx, r.c.cfg.Owner, r.c.cfg.Repo, sha, opt)
		if err != nil {
			return nil, resp, err
		}
		return res.CheckRuns, resp, nil
	}) {
		if err != nil {
			return nil, wrap("list check runs "+name+" on "+sha, err)
		}
		out = append(out, carryRun(run))
	}
	return out, nil
}

func carryRun(run *github.CheckRun) carry.CheckRun {
	cr := carry.CheckRun{ID: run.GetID(), AppID: run.GetApp().GetID(), Name: run.GetName(), HeadSHA: run.GetHeadSHA(),
		Status: run.GetStatus(), Conclusion: run.GetConclusion(), Completed: run.GetCompletedAt().Time, HTMLURL: run.GetHTMLURL(), DetailsURL: run.GetDetailsURL(),
		ExternalID: run.GetExternalID()}
	raw, err := review.ReadBackRaw(run)
	switch {
	case err == nil:
		cr.Response = raw
	case !errors.Is(err, review.ErrNotEmbedded):
		cr.ResponseErr = err.Error()
	}
	if cr.Binding, err = carry.ReadBinding(run.GetOutput().GetText()); err != nil {
		cr.BindingErr = err.Error()
	}
	return cr
}

// checkText is a check run's output.text: the binding record, when there
// is one, first (carry.ReadBinding reads it only there), then the
// embedded response. A record that does not fit beside the response is
// left out: the run is then not carried.
func checkText(raw []byte, b *carry.Binding) string {
	text := review.EmbedResponse(raw)
	if b == nil {
		return text
	}
	if rec := carry.EmbedBinding(*b); len(rec)+len(text) <= review.MaxCheckText {
		return rec + text
	}
	return text
}

// Create posts a completed check run with the carried response embedded
// in output.text, as CheckRun embeds a gate's.
func (r *CarryRuns) Create(ctx context.Context, n carry.NewCheckRun) error {
	out := &github.CheckRunOutput{Title: github.String(n.Title), Summary: github.String(review.CutRunes(n.Summary, review.MaxCheckText)),
		Text: github.String(checkText(n.Response, n.Binding))}
	opt := github.CreateCheckRunOptions{Name: n.Name, HeadSHA: n.HeadSHA, Status: github.String("completed"),
		Conclusion: github.String(n.Conclusion), Output: out}
	if n.DetailsURL != "" {
		opt.DetailsURL = github.String(n.DetailsURL)
	}
	if _, _, err := r.c.gh.Checks.CreateCheckRun(ctx, r.c.cfg.Owner, r.c.cfg.Repo, opt); err != nil {
		return wrap("create check run "+n.Name, err)
	}
	return nil
}

// PullRequestCommits lists a pull request's commits (Client.PullRequestCommits).
func (r *CarryRuns) PullRequestCommits(ctx context.Context, number int) ([]string, error) {
	return r.c.PullRequestCommits(ctx, number)
}

// Conclusion is the conclusion CheckRun gives a run of verdict.
func (r *CarryRuns) Conclusion(verdict string) string { return review.Conclusion(verdict) }

// PullRequestCommits returns the ids of a pull request's commits, oldest
// first, as GitHub lists them (at most 250).
func (c *Client) PullRequestCommits(ctx context.Context, number int) ([]string, error) {
	opt := &github.ListOptions{PerPage: perPage}
	var out []string
	for cm, err := range pages(opt, func() ([]*github.RepositoryCommit, *github.Response, error) {
		return c.gh.PullRequests.ListCommits(ctx, c.cfg.Owner, c.cfg.Repo, number, opt)
	}) {
		if err != nil {
			return nil, wrap(fmt.Sprintf("list commits of pull request %d", number), err)
		}
		out = append(out, cm.GetSHA())
	}
	return out, nil
}

var _ carry.CommitPulls = (*CarryRuns)(nil)

// CommitPullRequests lists the pull requests commit sha belongs to or was
// merged by (GET /repos/{o}/{r}/commits/{sha}/pulls), all pages.
func (r *CarryRuns) CommitPullRequests(ctx context.Context, sha string) ([]carry.PullRequest, error) {
	opt := &github.ListOptions{PerPage: perPage}
	var out []carry.PullRequest
	for pr, err := range pages(opt, func() ([]*github.PullRequest, *github.Response, error) {
		return r.c.gh.PullRequests.ListPullRequestsWithCommit(ctx, r.c.cfg.Owner, r.c.cfg.Repo, sha, opt)
	}) {
		if err != nil {
			return nil, wrap("list the pull requests of commit "+sha, err)
		}
		p := carry.PullRequest{Number: pr.GetNumber(), Base: pr.GetBase().GetRef()}
		if pr.MergedAt != nil {
			p.MergeCommitSHA = pr.GetMergeCommitSHA()
		}
		out = append(out, p)
	}
	return out, nil
}
