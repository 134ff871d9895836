package ghapi

import (
	"cmp"
	"context"
	"fmt"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/carry"
	"github.com/agcgate/agc-action/review"
	"github.com/google/go-github/v62/github"
)

// CheckInput is one gate's response for its check run.
type CheckInput struct {
	HeadSHA  string
	Response *agc.Response
	// Raw is the response's bytes as the gate wrote them, embedded so a
	// later run reads back exactly these; nil embeds agc.Encode's output.
	Raw        []byte
	Head       review.FileReader // to place annotations from patch remedies
	DetailsURL string            // the workflow run, shown for action_required
	// Binding, when set, is agc-action's binding record of the answer,
	// written at the start of the text, apart from the response.
	Binding *carry.Binding
	// Plan is the gate's review plan, when it has a review, so the
	// summary says where the findings that are not on the pull request are.
	Plan *review.ReviewPlan
	// Note, when set, is agc-action's own Markdown put first in the
	// summary (DeliverOptions.Notes).
	Note string
	// Links links the summary's locations to their lines (review.Links).
	Links review.Links
	// ExternalID, when set, is the run's external_id (carry.ValidatorJob).
	ExternalID string
	// Conclusion and Title, when set, are the run's instead of the
	// verdict's: a validator run that fails because another job's run on
	// the commit does (deliverValidator).
	Conclusion, Title string
	// SARIF is where the run's SARIF file is, which the check run names
	// for the findings it has no room to list.
	SARIF review.SARIFPlace
}

// CheckRun posts the check run agc/<gate.id> in one request: its
// conclusion from the verdict, and the output review.PlanCheck plans (the
// summary, the text with the binding record and the response embedded
// when they fit, an annotation for each of the first
// review.MaxAnnotationsPerGate findings with a line). When something did
// not fit, the summary says where it is.
func (c *Client) CheckRun(ctx context.Context, in CheckInput) (*github.CheckRun, error) {
	r := in.Response
	plan, err := in.plan()
	if err != nil {
		return nil, err
	}
	title, conclusion := cmp.Or(in.Title, review.CheckTitle(r)), cmp.Or(in.Conclusion, review.Conclusion(r.Verdict))
	out := &github.CheckRunOutput{Title: github.String(title), Summary: &plan.Summary, Text: &plan.Text, Annotations: plan.Annotations}
	opt := github.CreateCheckRunOptions{Name: review.CheckName(r.Gate.ID), HeadSHA: in.HeadSHA,
		Status: github.String("completed"), Conclusion: github.String(conclusion), Output: out}
	if in.DetailsURL != "" {
		opt.DetailsURL = github.String(in.DetailsURL)
	}
	if in.ExternalID != "" {
		opt.ExternalID = github.String(in.ExternalID)
	}
	run, _, err := c.gh.Checks.CreateCheckRun(ctx, c.cfg.Owner, c.cfg.Repo, opt)
	if err != nil {
		return nil, wrap("create check run "+review.CheckName(r.Gate.ID), err)
	}
	return run, nil
}

// Status posts the commit status agc/<gate.id>: success for allow and
// repaired, failure otherwise, with a description cut to 140 characters.
func (c *Client) Status(ctx context.Context, sha string, r *agc.Response, targetURL string) error {
	state := "failure"
	if review.Conclusion(r.Verdict) == "success" {
		state = "success"
	}
	return c.status(ctx, sha, review.CheckName(r.Gate.ID), state, review.StatusDescription(r), targetURL)
}

// status posts a commit status.
func (c *Client) status(ctx context.Context, sha, name, state, description, targetURL string) error {
	st := &github.RepoStatus{State: github.String(state), Context: github.String(name), Description: github.String(description)}
	if targetURL != "" {
		st.TargetURL = github.String(targetURL)
	}
	if _, _, err := c.gh.Repositories.CreateStatus(ctx, c.cfg.Owner, c.cfg.Repo, sha, st); err != nil {
		return wrap("create status "+name, err)
	}
	return nil
}

// plan is the output review.PlanCheck plans for in: the one plan of a
// check run, whether it is posted (CheckRun) or updated to fail
// (failCheckRun).
func (in CheckInput) plan() (review.CheckOutput, error) {
	r := in.Response
	raw := in.Raw
	if raw == nil {
		var err error
		if raw, err = agc.Encode(r); err != nil {
			return review.CheckOutput{}, fmt.Errorf("encode response of gate %s: %w", r.Gate.ID, err)
		}
	}
	rec := ""
	if in.Binding != nil {
		rec = carry.EmbedBinding(*in.Binding)
	}
	return review.PlanCheck(r, review.CheckOptions{Head: in.Head, Links: in.Links, Plan: in.Plan, Note: in.Note, Raw: raw, Record: rec, SARIF: in.SARIF}), nil
}
