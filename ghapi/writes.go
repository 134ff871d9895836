package ghapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/google/go-github/v62/github"
)

// EditComment replaces the body of review comment id.
func (c *Client) EditComment(ctx context.Context, id int64, body string) error {
	if _, _, err := c.gh.PullRequests.EditComment(ctx, c.cfg.Owner, c.cfg.Repo, id, &github.PullRequestComment{Body: &body}); err != nil {
		return wrap(fmt.Sprintf("edit review comment %d", id), err)
	}
	return nil
}

// EditReview replaces the body of review id of pull request number.
func (c *Client) EditReview(ctx context.Context, number int, id int64, body string) error {
	if _, _, err := c.gh.PullRequests.UpdateReview(ctx, c.cfg.Owner, c.cfg.Repo, number, id, body); err != nil {
		return wrap("update review body", err)
	}
	return nil
}

// CreateReview posts one COMMENT review of commit with its inline
// comments. A review with its comments is the largest write; a 5xx after
// GitHub made it must not post every comment again. The body carries a
// one-off mark, unforgeable since rendered text never holds "<!--",
// that the retry looks for first.
func (c *Client) CreateReview(ctx context.Context, number int, commit, body string, comments []*github.DraftReviewComment) error {
	mark := "<!-- agc-attempt:" + attemptID() + " -->"
	body += "\n" + mark + "\n"
	req := &github.PullRequestReviewRequest{CommitID: github.String(commit), Body: github.String(body),
		Event: github.String("COMMENT"), Comments: comments}
	made := false
	ctx = checkApplied(ctx, func(ctx context.Context) bool { made = c.reviewExists(ctx, number, mark); return made })
	if _, _, err := c.gh.PullRequests.CreateReview(ctx, c.cfg.Owner, c.cfg.Repo, number, req); err != nil && !made {
		return wrap(fmt.Sprintf("create review with %d comments", len(comments)), err)
	}
	return nil
}

// reviewExists reports whether a review of the pull request holds mark.
func (c *Client) reviewExists(ctx context.Context, number int, mark string) bool {
	opt := &github.ListOptions{PerPage: perPage}
	for rv, err := range pages(opt, func() ([]*github.PullRequestReview, *github.Response, error) {
		return c.gh.PullRequests.ListReviews(ctx, c.cfg.Owner, c.cfg.Repo, number, opt)
	}) {
		if err != nil || strings.Contains(rv.GetBody(), mark) {
			return err == nil
		}
	}
	return false
}

// attemptID is a random id for one write.
func attemptID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// CreateCheckRun posts a check run and returns its id.
func (c *Client) CreateCheckRun(ctx context.Context, opt github.CreateCheckRunOptions) (int64, error) {
	run, _, err := c.gh.Checks.CreateCheckRun(ctx, c.cfg.Owner, c.cfg.Repo, opt)
	if err != nil {
		return 0, wrap("create check run "+opt.Name, err)
	}
	return run.GetID(), nil
}

// UpdateCheckRun changes check run id as opt says.
func (c *Client) UpdateCheckRun(ctx context.Context, id int64, opt github.UpdateCheckRunOptions) error {
	if _, _, err := c.gh.Checks.UpdateCheckRun(ctx, c.cfg.Owner, c.cfg.Repo, id, opt); err != nil {
		return wrap(fmt.Sprintf("update check run %s (%d) to %s", opt.Name, id, opt.GetConclusion()), err)
	}
	return nil
}

// CheckRuns returns the check runs named name on sha, of every app, all
// pages (filter=all: GitHub's default "latest" would hide our run behind
// a later one of the same name).
func (c *Client) CheckRuns(ctx context.Context, sha, name string) ([]*github.CheckRun, error) {
	opt := &github.ListCheckRunsOptions{CheckName: github.String(name), Filter: github.String("all"),
		ListOptions: github.ListOptions{PerPage: perPage}}
	return all("list check runs "+name+" on "+sha, pages(&opt.ListOptions, func() ([]*github.CheckRun, *github.Response, error) {
		res, resp, err := c.gh.Checks.ListCheckRunsForRef(ctx, c.cfg.Owner, c.cfg.Repo, sha, opt)
		if err != nil {
			return nil, resp, err
		}
		return res.CheckRuns, resp, nil
	}), nil)
}

// CreateStatus posts the commit status st on sha.
func (c *Client) CreateStatus(ctx context.Context, sha string, st *github.RepoStatus) error {
	if _, _, err := c.gh.Repositories.CreateStatus(ctx, c.cfg.Owner, c.cfg.Repo, sha, st); err != nil {
		return wrap("create status "+st.GetContext(), err)
	}
	return nil
}

// Sleep waits d as the client waits between retries (RetryPolicy.Sleep).
func (c *Client) Sleep(ctx context.Context, d time.Duration) error { return c.retry.p.Sleep(ctx, d) }
