package ghapi

import (
	"context"
	"fmt"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/review"
	"github.com/google/go-github/v62/github"
)

// ReviewOptions tune one gate's review.
type ReviewOptions struct {
	Mode review.FilterMode // default review.FilterAdded
	// Head reads files at the head commit, to turn patch remedies into
	// suggestions. Nil: no suggestions, positions from locations only.
	Head review.FileReader
	// MaxComments is the most inline comments of one gate (default, and
	// at most, review.MaxInlinePerGate); the others are listed in the
	// review body.
	MaxComments int
	// Note, when set, is agc-action's own Markdown put first in the review
	// body (DeliverOptions.Notes, review.PlanOptions.Note).
	Note string
	// Links links the review body's and check run's locations to their
	// lines at the commit reported on (review.Links); zero: no links.
	Links review.Links
}

// ReviewResult says what a review delivery did.
type ReviewResult struct {
	Placed     []review.Placed
	Reviews    int // reviews created
	Posted     int // new inline comments
	Edited     int // comments and review bodies edited
	Unchanged  int // comments left as they were
	Resolved   int // threads resolved (findings gone)
	Unresolved int // threads reopened (findings back)
	// Inline, Listed, Unlisted and Capped count findings as
	// review.ReviewPlan does: inline comments, listed in the review body,
	// not in the review (the check run lists them: review.PlanCheck), and
	// listed rather than inline because of the ceiling.
	Inline, Listed, Unlisted, Capped int
	// Deferred counts edits and thread changes the ceiling left to a
	// later run; NoReview is set when the run's reviews were spent.
	Deferred int
	NoReview bool
}

// Review delivers the findings of r to the pull request as one review,
// reconciled with what earlier runs posted (unchanged findings post
// nothing, changed ones are edited, gone ones resolved) and within the
// ceiling of one run (review.NewBudget).
func (c *Client) Review(ctx context.Context, st *review.PRState, r *agc.Response, opt ReviewOptions) (*ReviewResult, error) {
	p := c.planReview(st, r, opt, review.NewBudget())
	res, err := c.postReview(ctx, st, p)
	if err != nil {
		return res, err
	}
	if err := c.setThreads(ctx, p.Reopen, p.Resolve); err != nil {
		return res, err
	}
	res.Resolved, res.Unresolved = len(p.Resolve), len(p.Reopen)
	return res, nil
}

func (c *Client) planReview(st *review.PRState, r *agc.Response, opt ReviewOptions, b *review.Budget) *review.ReviewPlan {
	return review.PlanReview(st, r, review.PlanOptions{Mode: opt.Mode, Head: opt.Head, Login: c.cfg.Login, MaxInline: opt.MaxComments, Note: opt.Note, Links: opt.Links}, b)
}

// postReview writes a plan's edits and its one review; its threads are
// the caller's, as one run resolves every gate's threads together.
func (c *Client) postReview(ctx context.Context, st *review.PRState, p *review.ReviewPlan) (*ReviewResult, error) {
	res := &ReviewResult{Placed: p.Placed, Unchanged: p.Unchanged, Inline: p.Inline, Listed: p.Listed, Unlisted: p.Unlisted,
		Capped: p.Capped, Deferred: p.DeferredEdits + p.DeferredThreads, NoReview: p.NoReview}
	for _, e := range p.Edits {
		body := e.Body
		if _, _, err := c.gh.PullRequests.EditComment(ctx, c.cfg.Owner, c.cfg.Repo, e.CommentID, &github.PullRequestComment{Body: &body}); err != nil {
			return res, wrap(fmt.Sprintf("edit review comment %d", e.CommentID), err)
		}
		res.Edited++
	}
	switch p.Review {
	case review.ReviewCreate:
		return res, c.createReview(ctx, st, p.Body, p.New, res)
	case review.ReviewEditBody:
		if _, _, err := c.gh.PullRequests.UpdateReview(ctx, c.cfg.Owner, c.cfg.Repo, st.Number, p.ReviewID, p.Body); err != nil {
			return res, wrap("update review body", err)
		}
		res.Edited++
	}
	return res, nil
}
