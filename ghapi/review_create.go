package ghapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/agcgate/agc-action/review"
	"github.com/google/go-github/v62/github"
)

func (c *Client) createReview(ctx context.Context, st *review.PRState, body string, comments []*github.DraftReviewComment, res *ReviewResult) error {
	// A review with its comments is the largest write; a 5xx after GitHub
	// made it must not post every comment again. The body carries a
	// one-off mark, unforgeable since rendered text never holds "<!--",
	// that the retry looks for first.
	mark := "<!-- agc-attempt:" + attemptID() + " -->"
	body += "\n" + mark + "\n"
	req := &github.PullRequestReviewRequest{CommitID: github.String(st.HeadSHA), Body: github.String(body),
		Event: github.String("COMMENT"), Comments: comments}
	write := func(ctx context.Context) (*github.Response, error) {
		_, resp, err := c.gh.PullRequests.CreateReview(ctx, c.cfg.Owner, c.cfg.Repo, st.Number, req)
		return resp, err
	}
	applied := func(ctx context.Context) bool { return c.reviewExists(ctx, st.Number, mark) }
	if err := c.checkedRetry(ctx, write, applied); err != nil {
		return wrap(fmt.Sprintf("create review with %d comments", len(comments)), err)
	}
	res.Reviews++
	res.Posted += len(comments)
	return nil
}

// reviewExists reports whether a review of the pull request holds mark.
func (c *Client) reviewExists(ctx context.Context, number int, mark string) bool {
	opt := &github.ListOptions{PerPage: 100}
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
