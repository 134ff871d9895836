package ghapi

import (
	"context"
	"fmt"

	"github.com/agcgate/agc-action/carry"
	"github.com/agcgate/agc-action/review"
	"github.com/agcgate/agc-action/validate"
	"github.com/google/go-github/v62/github"
)

// failingTitle is the title of a validator run that fails because another
// job's run on the commit does.
const failingTitle = "failure: another job's answers on this commit are invalid"

// validatorCheckRun posts agc/agc-validate so that parallel jobs on one
// commit agree (docs/many-gates.md): every job that runs the Action
// posts its own run of that one name, and a branch rule reads the newest,
// so a job whose answers are valid must not hide another job's invalid
// ones by finishing last. It reports whether the run posted fails because
// another job's does.
//
//   - A run whose own answers fail is posted as it is: being the newest,
//     it is what a branch rule reads.
//   - A run whose own answers pass first reads the commit's validator runs
//     of the trusted app (carry.ValidationFailures: the newest of each
//     other job, judged by its own answer); when one fails, it is posted
//     failing, naming it.
//   - Otherwise it is posted passing, and the runs are read again: a job
//     that posted failing between the read and the post (the two jobs ran
//     at once) was missed, so the run is updated to fail. A job that posts
//     after the second read posts a newer run, which a branch rule reads.
//
// What remains is GitHub's own lag: a run created before the second read
// but not yet listed by it (docs/many-gates.md, "What is left").
func (c *Client) validatorCheckRun(ctx context.Context, in CheckInput, opt DeliverOptions) (failing bool, err error) {
	in.ExternalID = opt.ValidatorJob
	if review.Conclusion(in.Response.Verdict) != "success" {
		_, err := c.CheckRun(ctx, in)
		return false, err
	}
	others, err := c.validationFailures(ctx, in.HeadSHA, opt)
	if err != nil {
		return false, err
	}
	if len(others) > 0 {
		_, err := c.CheckRun(ctx, failingInput(in, others))
		return true, err
	}
	run, err := c.CheckRun(ctx, in)
	if err != nil {
		return false, err
	}
	if others, err = c.validationFailures(ctx, in.HeadSHA, opt); err != nil || len(others) == 0 {
		return false, err
	}
	return true, c.failCheckRun(ctx, run.GetID(), failingInput(in, others))
}

// failingInput is in posted failing because of the runs others.
func failingInput(in CheckInput, others []carry.CheckRun) CheckInput {
	in.Conclusion, in.Title = "failure", failingTitle
	in.Note = carry.FailuresNote(others) + in.Note
	return in
}

// validationFailures reads the commit's validator runs and returns the
// other jobs' that fail (carry.ValidationFailures).
func (c *Client) validationFailures(ctx context.Context, sha string, opt DeliverOptions) ([]carry.CheckRun, error) {
	name := review.CheckName(validate.GateID)
	list, err := c.CarryRuns().List(ctx, sha, name)
	if err != nil {
		return nil, fmt.Errorf("read the other jobs' %s runs on this commit: %w", name, err)
	}
	app := opt.AppID
	if app == 0 {
		app = carry.ActionsAppID
	}
	return carry.ValidationFailures(list, name, sha, app, opt.ValidatorJob, review.Conclusion), nil
}

// failCheckRun updates the run id, posted passing, to fail as in says:
// its conclusion, title and summary (the text, the embedded response, and
// the annotations stay as posted).
func (c *Client) failCheckRun(ctx context.Context, id int64, in CheckInput) error {
	plan, err := in.plan()
	if err != nil {
		return err
	}
	opt := github.UpdateCheckRunOptions{Name: review.CheckName(in.Response.Gate.ID), Status: github.String("completed"),
		Conclusion: github.String(in.Conclusion),
		Output:     &github.CheckRunOutput{Title: github.String(in.Title), Summary: github.String(plan.Summary)}}
	if _, _, err := c.gh.Checks.UpdateCheckRun(ctx, c.cfg.Owner, c.cfg.Repo, id, opt); err != nil {
		return wrap(fmt.Sprintf("update check run %s (%d) to failure", opt.Name, id), err)
	}
	return nil
}
