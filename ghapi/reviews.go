package ghapi

import (
	"context"
	"fmt"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/render"
	"github.com/google/go-github/v62/github"
)

// reviews posts the new inline comments as one review (several when there
// are more than max) and keeps the review body, which carries the findings
// outside the pull request's files, up to date.
func (c *Client) reviews(ctx context.Context, st *PRState, r *agc.Response, drafts []*github.DraftReviewComment, ex own, res *ReviewResult, max int) error {
	gate := r.Gate.ID
	var bodyPs []Placed
	for _, p := range res.Placed {
		if p.Channel == ChannelBody {
			bodyPs = append(bodyPs, p)
		}
	}
	heading := fmt.Sprintf("**agc/%s**: verdict **%s**, %d findings. The check run agc/%s holds the whole response.\n",
		render.Escape(gate), render.Escape(r.Verdict), len(r.Findings), render.Escape(gate))
	if len(bodyPs) > 0 {
		heading += "\nFindings outside this pull request's files:\n"
	}
	body, hash := groupBody(gate, heading, bodyPs, func(h string) string {
		return FormatMarker(MarkReview, "gate", gate, "hash", h)
	})
	bodyCurrent := ex.review != nil && ex.revHash == hash
	if len(drafts) == 0 {
		switch {
		case ex.review != nil && !bodyCurrent:
			if _, _, err := c.gh.PullRequests.UpdateReview(ctx, c.cfg.Owner, c.cfg.Repo, st.Number, ex.review.GetID(), body); err != nil {
				return wrap("update review body", err)
			}
			res.Edited++
		case ex.review == nil && len(bodyPs) > 0:
			return c.createReview(ctx, st, body, nil, res)
		}
		return nil
	}
	n := (len(drafts) + max - 1) / max
	for k := 0; k < n; k++ {
		chunk := drafts[k*max : min((k+1)*max, len(drafts))]
		b := body
		if k > 0 || bodyCurrent {
			b = fmt.Sprintf("**agc/%s**: %d new findings on the lines this pull request changes (part %d of %d).\n",
				render.Escape(gate), len(chunk), k+1, n)
		}
		if err := c.createReview(ctx, st, b, chunk, res); err != nil {
			return err
		}
	}
	return nil
}

func (c *Client) createReview(ctx context.Context, st *PRState, body string, comments []*github.DraftReviewComment, res *ReviewResult) error {
	req := &github.PullRequestReviewRequest{CommitID: github.String(st.HeadSHA), Body: github.String(body),
		Event: github.String("COMMENT"), Comments: comments}
	if _, _, err := c.gh.PullRequests.CreateReview(ctx, c.cfg.Owner, c.cfg.Repo, st.Number, req); err != nil {
		return wrap(fmt.Sprintf("create review with %d comments", len(comments)), err)
	}
	res.Reviews++
	res.Posted += len(comments)
	return nil
}
