package ghapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/review"
	"github.com/google/go-github/v62/github"
)

// reviews posts the new inline comments as one review (several when there
// are more than max) and keeps the review body, which carries the findings
// outside the pull request's files, up to date.
func (c *Client) reviews(ctx context.Context, st *review.PRState, r *agc.Response, drafts []*github.DraftReviewComment, ex review.Own, res *ReviewResult, max int) error {
	gate := r.Gate.ID
	var bodyPs []review.Placed
	for _, p := range res.Placed {
		if p.Channel == review.ChannelBody {
			bodyPs = append(bodyPs, p)
		}
	}
	body, hash := review.ReviewBody(r, bodyPs)
	bodyCurrent := ex.Review != nil && ex.ReviewHash == hash
	if len(drafts) == 0 {
		switch {
		case ex.Review != nil && !bodyCurrent:
			if _, _, err := c.gh.PullRequests.UpdateReview(ctx, c.cfg.Owner, c.cfg.Repo, st.Number, ex.Review.GetID(), body); err != nil {
				return wrap("update review body", err)
			}
			res.Edited++
		case ex.Review == nil && len(bodyPs) > 0:
			return c.createReview(ctx, st, body, nil, res)
		}
		return nil
	}
	n := (len(drafts) + max - 1) / max
	for k := 0; k < n; k++ {
		chunk := drafts[k*max : min((k+1)*max, len(drafts))]
		b := body
		if k > 0 || bodyCurrent {
			b = review.PartBody(gate, len(chunk), k+1, n)
		}
		if err := c.createReview(ctx, st, b, chunk, res); err != nil {
			return err
		}
	}
	return nil
}

func (c *Client) createReview(ctx context.Context, st *review.PRState, body string, comments []*github.DraftReviewComment, res *ReviewResult) error {
	// A review with its comments is the largest write; a 5xx after GitHub
	// made it must not post every comment again. The body carries a
	// one-off mark, unforgeable since rendered text never holds "<!--",
	// that the retry looks for first.
	mark := "<!-- agc-attempt:" + attemptID() + " -->"
	body += "\n" + mark + "\n"
	ctx = whenApplied(ctx, func(ctx context.Context) bool { return c.reviewExists(ctx, st.Number, mark) })
	req := &github.PullRequestReviewRequest{CommitID: github.String(st.HeadSHA), Body: github.String(body),
		Event: github.String("COMMENT"), Comments: comments}
	if _, _, err := c.gh.PullRequests.CreateReview(ctx, c.cfg.Owner, c.cfg.Repo, st.Number, req); err != nil {
		return wrap(fmt.Sprintf("create review with %d comments", len(comments)), err)
	}
	res.Reviews++
	res.Posted += len(comments)
	return nil
}

// reviewExists reports whether a review of the pull request holds mark.
func (c *Client) reviewExists(ctx context.Context, number int, mark string) bool {
	ctx = context.WithValue(ctx, appliedKey{}, nil) // the check itself is a plain read
	opt := &github.ListOptions{PerPage: 100}
	for {
		rvs, resp, err := c.gh.PullRequests.ListReviews(ctx, c.cfg.Owner, c.cfg.Repo, number, opt)
		if err != nil {
			return false
		}
		for _, rv := range rvs {
			if strings.Contains(rv.GetBody(), mark) {
				return true
			}
		}
		if resp.NextPage == 0 {
			return false
		}
		opt.Page = resp.NextPage
	}
}

// attemptID is a random id for one write.
func attemptID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
