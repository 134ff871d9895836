package deliver

import (
	"cmp"
	"context"
	"errors"
	"fmt"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/carry"
	"github.com/agcgate/agc-action/review"
	"github.com/agcgate/agc-action/validate"
	"github.com/google/go-github/v62/github"
)

// check is one gate's check run: what review.PlanCheck plans its output
// from, and the run's own fields.
type check struct {
	review.CheckOptions
	r          *agc.Response
	externalID string // carry.ValidatorJob, on agc/agc-validate
	// conclusion and title, when set, are the run's instead of the
	// verdict's: a validator run that fails because another job's does.
	conclusion, title string
}

// status posts the commit status name: state, with a description.
func (d *run) status(ctx context.Context, name, state, description string) error {
	st := &github.RepoStatus{State: github.String(state), Context: github.String(name), Description: github.String(description)}
	if d.opt.DetailsURL != "" {
		st.TargetURL = github.String(d.opt.DetailsURL)
	}
	return d.gh.CreateStatus(ctx, d.opt.HeadSHA, st)
}

// checks posts one gate's check run and status, as the options ask.
func (d *run) checks(ctx context.Context, g agc.Doc, p *review.ReviewPlan) error {
	r, opt := g.Response, d.opt
	if !opt.Check && !opt.Status {
		return nil
	}
	c := check{r: r, CheckOptions: review.CheckOptions{Head: opt.Plan.Head, Links: opt.Plan.Links, Plan: p, Note: opt.Notes[r.Gate.ID], Raw: g.Raw, SARIF: opt.SARIF}}
	if c.Raw == nil {
		var err error
		if c.Raw, err = agc.Encode(r); err != nil {
			d.rep.NotDelivered = append(d.rep.NotDelivered, "the check run "+review.CheckName(r.Gate.ID))
			return fmt.Errorf("gate %s: encode its response: %w", r.Gate.ID, err)
		}
	}
	if b, ok := opt.Bindings[r.Gate.ID]; ok {
		c.Record = carry.EmbedBinding(b)
	}
	if r.Gate.ID == validate.GateID {
		return d.validator(ctx, c)
	}
	_, err := d.post(ctx, c)
	return err
}

// post posts c's check run and status, as the options ask, and returns
// the check run's id (0: none posted). The check run is one request: its
// conclusion from the verdict, and the output review.PlanCheck plans (the
// summary, saying where what did not fit is; the text with the binding
// record and the response embedded when they fit; the annotations). A
// failing c (conclusion) fails the status too; otherwise it is success
// for allow and repaired, failure otherwise, with a description cut to
// 140 characters.
func (d *run) post(ctx context.Context, c check) (int64, error) {
	name := review.CheckName(c.r.Gate.ID)
	var id int64
	if d.opt.Check {
		plan := review.PlanCheck(c.r, c.CheckOptions)
		out := &github.CheckRunOutput{Title: github.String(cmp.Or(c.title, review.CheckTitle(c.r))), Summary: &plan.Summary, Text: &plan.Text,
			Annotations: plan.Annotations}
		opt := github.CreateCheckRunOptions{Name: name, HeadSHA: d.opt.HeadSHA, Status: github.String("completed"),
			Conclusion: github.String(cmp.Or(c.conclusion, review.Conclusion(c.r.Verdict))), Output: out}
		if d.opt.DetailsURL != "" {
			opt.DetailsURL = github.String(d.opt.DetailsURL)
		}
		if c.externalID != "" {
			opt.ExternalID = github.String(c.externalID)
		}
		var err error
		if id, err = d.gh.CreateCheckRun(ctx, opt); err != nil {
			d.rep.NotDelivered = append(d.rep.NotDelivered, "the check run "+name)
			return 0, fmt.Errorf("gate %s: %w", c.r.Gate.ID, err)
		}
		d.rep.Checks++
	}
	if d.opt.Status {
		state, description := "failure", c.title
		if c.conclusion != "failure" {
			description = review.StatusDescription(c.r)
			if review.Conclusion(c.r.Verdict) == "success" {
				state = "success"
			}
		}
		if err := d.status(ctx, name, state, description); err != nil {
			d.rep.NotDelivered = append(d.rep.NotDelivered, "the status "+name)
			return id, fmt.Errorf("gate %s: %w", c.r.Gate.ID, err)
		}
		d.rep.Statuses++
	}
	return id, nil
}

// failingTitle is the title of a validator run that fails because another
// job's run on the commit does.
const failingTitle = "failure: another job's answers on this commit are invalid"

// unreadTitle is the title of a validator run that fails because the
// other jobs' runs could not be read after it was posted passing.
const unreadTitle = "failure: the other jobs' runs on this commit could not be read"

// validator posts agc/agc-validate, its check run and its commit status as
// the options ask, so that parallel jobs on one commit agree
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
func (d *run) validator(ctx context.Context, in check) error {
	in.externalID = d.opt.ValidatorJob
	if review.Conclusion(in.r.Verdict) != "success" || !d.opt.Check {
		_, err := d.post(ctx, in)
		return err
	}
	others, err := d.validationFailures(ctx)
	if err != nil {
		d.rep.NotDelivered = append(d.rep.NotDelivered, "the check run "+review.CheckName(validate.GateID))
		return fmt.Errorf("gate %s: %w", validate.GateID, err)
	}
	if len(others) > 0 {
		_, err := d.post(ctx, failingInput(in, others))
		return err
	}
	id, err := d.post(ctx, in)
	if err != nil {
		return err
	}
	others, err = d.validationFailures(ctx)
	switch {
	case err != nil:
		fail := in
		fail.conclusion, fail.title = "failure", unreadTitle
		fail.Note = "The other jobs' " + review.CheckName(validate.GateID) + " runs on this commit could not be read after this run was posted, so it cannot say that none failed.\n\n" + in.Note
		return errors.Join(err, d.failValidator(ctx, id, fail))
	case len(others) > 0:
		return d.failValidator(ctx, id, failingInput(in, others))
	}
	return nil
}

// failValidator makes what post posted passing fail as in says: the check
// run id is updated (its conclusion, title and summary; the text, the
// embedded response and the annotations stay as posted) and a failing
// status posted.
func (d *run) failValidator(ctx context.Context, id int64, in check) error {
	name := review.CheckName(validate.GateID)
	var errs []error
	if id != 0 {
		err := d.gh.UpdateCheckRun(ctx, id, github.UpdateCheckRunOptions{Name: name, Status: github.String("completed"),
			Conclusion: github.String(in.conclusion),
			Output:     &github.CheckRunOutput{Title: github.String(in.title), Summary: github.String(review.PlanCheck(in.r, in.CheckOptions).Summary)}})
		if err != nil {
			d.rep.NotDelivered = append(d.rep.NotDelivered, "the failing update of the check run "+name)
			errs = append(errs, err)
		}
	}
	if d.opt.Status {
		if err := d.status(ctx, name, "failure", in.title); err != nil {
			d.rep.NotDelivered = append(d.rep.NotDelivered, "the failing status "+name)
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// failingInput is in posted failing because of the runs others.
func failingInput(in check, others []carry.CheckRun) check {
	in.conclusion, in.title = "failure", failingTitle
	in.Note = carry.FailuresNote(others) + in.Note
	return in
}

// validationFailures reads the commit's validator runs and returns the
// other jobs' that fail (carry.ValidationFailures).
func (d *run) validationFailures(ctx context.Context) ([]carry.CheckRun, error) {
	sha := d.opt.HeadSHA
	name := review.CheckName(validate.GateID)
	list, err := listRuns(ctx, d.gh, sha, name)
	if err != nil {
		return nil, fmt.Errorf("read the other jobs' %s runs on this commit: %w", name, err)
	}
	app := cmp.Or(d.opt.AppID, carry.ActionsAppID)
	return carry.ValidationFailures(list, name, sha, app, d.opt.ValidatorJob, review.Conclusion), nil
}
