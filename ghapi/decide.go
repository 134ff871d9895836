package ghapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/agcgate/agc-action/decide"
	"github.com/google/go-github/v62/github"
)

// What a person's decision asks of GitHub (docs/rounds.md, "A person
// decides"): the gate's check runs on the head with when they completed,
// the commenter's permission, and the one reply to a comment that is not
// taken as a decision. The gate's check runs are read with CarryRuns.List
// (carry.CheckRun.Completed says when each completed), and the decision's
// check run is posted through CarryRuns.Create, as a carried run is: a
// binding record and the response embedded.

// Permission returns a user's permission on the repository and role
// name, as GET /repos/{o}/{r}/collaborators/{username}/permission answers
// ("permission": admin, write, read or none; "role_name": admin,
// maintain, write, triage, read or a custom role). A user GitHub does not
// know answers 404: "none".
func (c *Client) Permission(ctx context.Context, login string) (permission, role string, err error) {
	if !decide.ValidLogin(login) {
		return "", "", fmt.Errorf("permission of %q: not a login", login)
	}
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

// RepliedTo reports whether the pull request's conversation holds a reply
// by the client's login (Config.Login) to comment (decide.RepliedTo), so a
// rerun does not reply twice.
func (c *Client) RepliedTo(ctx context.Context, pr int, comment int64) (bool, error) {
	opt := &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: perPage}}
	for cm, err := range pages(&opt.ListOptions, func() ([]*github.IssueComment, *github.Response, error) {
		return c.gh.Issues.ListComments(ctx, c.cfg.Owner, c.cfg.Repo, pr, opt)
	}) {
		if err != nil {
			return false, wrap(fmt.Sprintf("list the comments of pull request %d", pr), err)
		}
		if id, ok := decide.RepliedTo(cm.GetBody()); ok && id == comment && cm.GetUser().GetLogin() == c.cfg.Login {
			return true, nil
		}
	}
	return false, nil
}

// Reply posts a comment on the pull request's conversation.
func (c *Client) Reply(ctx context.Context, pr int, body string) error {
	if _, _, err := c.gh.Issues.CreateComment(ctx, c.cfg.Owner, c.cfg.Repo, pr, &github.IssueComment{Body: github.String(body)}); err != nil {
		return wrap(fmt.Sprintf("reply on pull request %d", pr), err)
	}
	return nil
}
