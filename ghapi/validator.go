package ghapi

import (
	"context"
	"errors"
	"fmt"

	"github.com/agcgate/agc-action/carry"
	"github.com/agcgate/agc-action/review"
	"github.com/agcgate/agc-action/validate"
	"github.com/google/go-github/v62/github"
)

// failingTitle is the title of a validator run that fails because another
// job's run on the commit does.
const failingTitle = "failure: another job's answers on this commit are invalid"

// deliverValidator posts agc/agc-validate, its check run and its commit
// status as opt asks, so that parallel jobs on one commit agree
// (docs/many-gates.md): every job that runs the Action posts its own of
// that one name, and a branch rule reads the newest, so a job whose
// answers are valid must not hide another job's invalid ones by finishing
// last.
//
//   - A job whose own answers fail posts them as they are: being the
//     newest, they are what a branch rule reads.
//   - A job whose own answers pass first reads the commit's validator runs
//     of the trusted app (carry.ValidationFailures: the newest of each
//     other job, judged by its own answer); when one fails, it posts
//     failing, naming it. A read that fails posts nothing.
//   - Otherwise it posts passing, check run and status, and reads again: a
//     job that posted failing between the two reads (the jobs ran at once)
//     was missed, so both are made to fail. A second read that fails makes
//     them fail too: what was posted passing must not stand unchecked. A
//     job that posts after the second read posts newer ones, which a
//     branch rule reads.
//
// What remains is GitHub's own lag: a run created before the second read
// but not yet listed by it (docs/many-gates.md, "What is left"). Only
// check runs are read: with statuses alone (check: false) jobs do not
// agree.
func (c *Client) deliverValidator(ctx context.Context, in CheckInput, opt DeliverOptions, rep *Report) error {
	in.ExternalID = opt.ValidatorJob
	if review.Conclusion(in.Response.Verdict) != "success" || !opt.Check {
		_, err := c.postValidator(ctx, in, opt, rep)
		return err
	}
	others, err := c.validationFailures(ctx, in.HeadSHA, opt)
	if err != nil {
		rep.NotDelivered = append(rep.NotDelivered, "the check run "+review.CheckName(validate.GateID))
		return fmt.Errorf("gate %s: %w", validate.GateID, err)
	}
	if len(others) > 0 {
		_, err := c.postValidator(ctx, failingInput(in, others), opt, rep)
		return err
	}
	id, err := c.postValidator(ctx, in, opt, rep)
	if err != nil {
		return err
	}
	others, err = c.validationFailures(ctx, in.HeadSHA, opt)
	switch {
	case err != nil:
		fail := in
		fail.Conclusion, fail.Title = "failure", unreadTitle
		fail.Note = "The other jobs' " + review.CheckName(validate.GateID) + " runs on this commit could not be read after this run was posted, so it cannot say that none failed.\n\n" + in.Note
		return errors.Join(err, c.failValidator(ctx, id, fail, opt, rep))
	case len(others) > 0:
		return c.failValidator(ctx, id, failingInput(in, others), opt, rep)
	}
	return nil
}

// unreadTitle is the title of a validator run that fails because the
// other jobs' runs could not be read after it was posted passing.
const unreadTitle = "failure: the other jobs' runs on this commit could not be read"

// postValidator posts in's check run and status, as opt asks, and returns
// the check run's id (0: none posted). A failing in (Conclusion) fails
// the status too.
func (c *Client) postValidator(ctx context.Context, in CheckInput, opt DeliverOptions, rep *Report) (int64, error) {
	name := review.CheckName(validate.GateID)
	var id int64
	if opt.Check {
		run, err := c.CheckRun(ctx, in)
		if err != nil {
			rep.NotDelivered = append(rep.NotDelivered, "the check run "+name)
			return 0, fmt.Errorf("gate %s: %w", validate.GateID, err)
		}
		rep.Checks++
		id = run.GetID()
	}
	if opt.Status {
		var err error
		if in.Conclusion == "failure" {
			err = c.status(ctx, in.HeadSHA, name, "failure", in.Title, opt.DetailsURL)
		} else {
			err = c.Status(ctx, in.HeadSHA, in.Response, opt.DetailsURL)
		}
		if err != nil {
			rep.NotDelivered = append(rep.NotDelivered, "the status "+name)
			return id, fmt.Errorf("gate %s: %w", validate.GateID, err)
		}
		rep.Statuses++
	}
	return id, nil
}

// failValidator makes what postValidator posted passing fail as in says:
// the check run id is updated (failCheckRun) and a failing status posted.
func (c *Client) failValidator(ctx context.Context, id int64, in CheckInput, opt DeliverOptions, rep *Report) error {
	name := review.CheckName(validate.GateID)
	var errs []error
	if id != 0 {
		if err := c.failCheckRun(ctx, id, in); err != nil {
			rep.NotDelivered = append(rep.NotDelivered, "the failing update of the check run "+name)
			errs = append(errs, err)
		}
	}
	if opt.Status {
		if err := c.status(ctx, in.HeadSHA, name, "failure", in.Title, opt.DetailsURL); err != nil {
			rep.NotDelivered = append(rep.NotDelivered, "the failing status "+name)
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
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
