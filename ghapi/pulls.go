package ghapi

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/url"

	"github.com/google/go-github/v62/github"
)

const perPage = 100

// pages yields every item of a listing that GitHub splits into pages:
// list reads the page opt names, and the next page (Response.NextPage)
// is read once every item of one has been taken. A failed read yields its
// error and ends the listing; breaking out reads no further page.
func pages[T any](opt *github.ListOptions, list func() ([]T, *github.Response, error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for {
			items, resp, err := list()
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, it := range items {
				if !yield(it, nil) {
					return
				}
			}
			if resp.NextPage == 0 {
				return
			}
			opt.Page = resp.NextPage
		}
	}
}

// all collects a listing of op, keeping the items keep accepts (nil: all).
func all[T any](op string, seq iter.Seq2[T, error], keep func(T) bool) ([]T, error) {
	var out []T
	for it, err := range seq {
		if err != nil {
			return nil, wrap(op, err)
		}
		if keep == nil || keep(it) {
			out = append(out, it)
		}
	}
	return out, nil
}

// PullInfo is what GET /pulls/{n} says of a pull request now.
type PullInfo struct {
	HeadSHA, BaseSHA, BaseRef string
	ChangedFiles              int
}

// Pull reads the pull request's current head and base (GET /pulls/{n}).
// GitHub answers it, so the head it names is trusted.
func (c *Client) Pull(ctx context.Context, number int) (*PullInfo, error) {
	pr, _, err := c.gh.PullRequests.Get(ctx, c.cfg.Owner, c.cfg.Repo, number)
	if err != nil {
		return nil, wrap(fmt.Sprintf("get pull request #%d", number), err)
	}
	return &PullInfo{HeadSHA: pr.GetHead().GetSHA(), BaseSHA: pr.GetBase().GetSHA(), BaseRef: pr.GetBase().GetRef(), ChangedFiles: pr.GetChangedFiles()}, nil
}

// Files lists the pull request's files with their patches (GitHub lists
// at most 3,000).
func (c *Client) Files(ctx context.Context, number int) ([]*github.CommitFile, error) {
	opt := &github.ListOptions{PerPage: perPage}
	return all("list pull request files", pages(opt, func() ([]*github.CommitFile, *github.Response, error) {
		return c.gh.PullRequests.ListFiles(ctx, c.cfg.Owner, c.cfg.Repo, number, opt)
	}), nil)
}

// Login is the identity whose comments, reviews and replies the client
// takes as its own (Config.Login).
func (c *Client) Login() string { return c.cfg.Login }

// OwnComments lists the pull request's review comments the client's
// login wrote.
func (c *Client) OwnComments(ctx context.Context, number int) ([]*github.PullRequestComment, error) {
	opt := &github.PullRequestListCommentsOptions{ListOptions: github.ListOptions{PerPage: perPage}}
	return all("list review comments", pages(&opt.ListOptions, func() ([]*github.PullRequestComment, *github.Response, error) {
		return c.gh.PullRequests.ListComments(ctx, c.cfg.Owner, c.cfg.Repo, number, opt)
	}), func(cm *github.PullRequestComment) bool { return cm.GetUser().GetLogin() == c.cfg.Login })
}

// OwnReviews lists the pull request's reviews the client's login wrote.
func (c *Client) OwnReviews(ctx context.Context, number int) ([]*github.PullRequestReview, error) {
	opt := &github.ListOptions{PerPage: perPage}
	return all("list reviews", pages(opt, func() ([]*github.PullRequestReview, *github.Response, error) {
		return c.gh.PullRequests.ListReviews(ctx, c.cfg.Owner, c.cfg.Repo, number, opt)
	}), func(r *github.PullRequestReview) bool { return r.GetUser().GetLogin() == c.cfg.Login })
}

// PullRequestCommits returns the ids of a pull request's commits, oldest
// first, as GitHub lists them (at most 250).
func (c *Client) PullRequestCommits(ctx context.Context, number int) ([]string, error) {
	opt := &github.ListOptions{PerPage: perPage}
	cms, err := all(fmt.Sprintf("list commits of pull request %d", number), pages(opt, func() ([]*github.RepositoryCommit, *github.Response, error) {
		return c.gh.PullRequests.ListCommits(ctx, c.cfg.Owner, c.cfg.Repo, number, opt)
	}), nil)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(cms))
	for i, cm := range cms {
		out[i] = cm.GetSHA()
	}
	return out, nil
}

// CommitPullRequests lists the pull requests commit sha belongs to or was
// merged by (GET /repos/{o}/{r}/commits/{sha}/pulls), all pages.
func (c *Client) CommitPullRequests(ctx context.Context, sha string) ([]*github.PullRequest, error) {
	opt := &github.ListOptions{PerPage: perPage}
	return all("list the pull requests of commit "+sha, pages(opt, func() ([]*github.PullRequest, *github.Response, error) {
		return c.gh.PullRequests.ListPullRequestsWithCommit(ctx, c.cfg.Owner, c.cfg.Repo, sha, opt)
	}), nil)
}

// IssueComments lists the comments of the pull request's conversation.
func (c *Client) IssueComments(ctx context.Context, pr int) ([]*github.IssueComment, error) {
	opt := &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: perPage}}
	return all(fmt.Sprintf("list the comments of pull request %d", pr), pages(&opt.ListOptions, func() ([]*github.IssueComment, *github.Response, error) {
		return c.gh.Issues.ListComments(ctx, c.cfg.Owner, c.cfg.Repo, pr, opt)
	}), nil)
}

// Reply posts a comment on the pull request's conversation.
func (c *Client) Reply(ctx context.Context, pr int, body string) error {
	if _, _, err := c.gh.Issues.CreateComment(ctx, c.cfg.Owner, c.cfg.Repo, pr, &github.IssueComment{Body: github.String(body)}); err != nil {
		return wrap(fmt.Sprintf("reply on pull request %d", pr), err)
	}
	return nil
}

// Permission returns a user's permission on the repository and role
// name, as GET /repos/{o}/{r}/collaborators/{username}/permission answers
// ("permission": admin, write, read or none; "role_name": admin,
// maintain, write, triage, read or a custom role). A user GitHub does not
// know answers 404: "none".
func (c *Client) Permission(ctx context.Context, login string) (permission, role string, err error) {
	u := fmt.Sprintf("repos/%s/%s/collaborators/%s/permission", url.PathEscape(c.cfg.Owner), url.PathEscape(c.cfg.Repo), url.PathEscape(login))
	req, err := c.gh.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		return "", "", err
	}
	var v struct {
		Permission string `json:"permission"`
		RoleName   string `json:"role_name"`
	}
	if _, err := c.gh.Do(ctx, req, &v); err != nil {
		var er *github.ErrorResponse
		if errors.As(err, &er) && er.Response != nil && er.Response.StatusCode == http.StatusNotFound {
			return "none", "", nil
		}
		return "", "", wrap("read the permission of "+login, err)
	}
	return v.Permission, v.RoleName, nil
}
