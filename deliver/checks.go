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
	// summary (Options.Notes).
	Note string
	// Links links the summary's locations to their lines (review.Links).
	Links review.Links
	// ExternalID, when set, is the run's external_id (carry.ValidatorJob).
	ExternalID string
	// Conclusion and Title, when set, are the run's instead of the
	// verdict's: a validator run that fails because another job's run on
	// the commit does (validator).
	Conclusion, Title string
	// SARIF is where the run's SARIF file is, which the check run names
	// for the findings it has no room to list.
	SARIF review.SARIFPlace
}

// CheckRun posts the check run agc/<gate.id> in one request and returns
// its id: its conclusion from the verdict, and the output review.PlanCheck
// plans (the summary, the text with the binding record and the response
// embedded when they fit, an annotation for each of the first
// review.MaxAnnotationsPerGate findings with a line). When something did
// not fit, the summary says where it is.
func CheckRun(ctx context.Context, gh Checks, in CheckInput) (int64, error) {
	r := in.Response
	plan, err := in.plan()
	if err != nil {
		return 0, err
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
	return gh.CreateCheckRun(ctx, opt)
}

// Status posts the commit status agc/<gate.id>: success for allow and
// repaired, failure otherwise, with a description cut to 140 characters.
func Status(ctx context.Context, gh Statuses, sha string, r *agc.Response, targetURL string) error {
	state := "failure"
	if review.Conclusion(r.Verdict) == "success" {
		state = "success"
	}
	return status(ctx, gh, sha, review.CheckName(r.Gate.ID), state, review.StatusDescription(r), targetURL)
}

func status(ctx context.Context, gh Statuses, sha, name, state, description, targetURL string) error {
	st := &github.RepoStatus{State: github.String(state), Context: github.String(name), Description: github.String(description)}
	if targetURL != "" {
		st.TargetURL = github.String(targetURL)
	}
	return gh.CreateStatus(ctx, sha, st)
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

// checks posts one gate's check run and status, as the options ask.
func (d *run) checks(ctx context.Context, g agc.Doc, p *review.ReviewPlan) error {
	r, opt := g.Response, d.opt
	if !opt.Check && !opt.Status {
		return nil
	}
	in := CheckInput{HeadSHA: opt.HeadSHA, Response: r, Raw: g.Raw, Head: opt.Plan.Head, DetailsURL: opt.DetailsURL, Plan: p,
		Note: opt.Notes[r.Gate.ID], Links: opt.Plan.Links, SARIF: opt.SARIF}
	if b, ok := opt.Bindings[r.Gate.ID]; ok {
		in.Binding = &b
	}
	if r.Gate.ID == validate.GateID {
		return d.validator(ctx, in)
	}
	_, err := d.post(ctx, in)
	return err
}

// post posts in's check run and status, as the options ask, and returns
// the check run's id (0: none posted). A failing in (Conclusion) fails
// the status too.
func (d *run) post(ctx context.Context, in CheckInput) (int64, error) {
	name := review.CheckName(in.Response.Gate.ID)
	var id int64
	if d.opt.Check {
		var err error
		if id, err = CheckRun(ctx, d.gh, in); err != nil {
			d.rep.NotDelivered = append(d.rep.NotDelivered, "the check run "+name)
			return 0, fmt.Errorf("gate %s: %w", in.Response.Gate.ID, err)
		}
		d.rep.Checks++
	}
	if d.opt.Status {
		var err error
		if in.Conclusion == "failure" {
			err = status(ctx, d.gh, in.HeadSHA, name, "failure", in.Title, d.opt.DetailsURL)
		} else {
			err = Status(ctx, d.gh, in.HeadSHA, in.Response, d.opt.DetailsURL)
		}
		if err != nil {
			d.rep.NotDelivered = append(d.rep.NotDelivered, "the status "+name)
			return id, fmt.Errorf("gate %s: %w", in.Response.Gate.ID, err)
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
func (d *run) validator(ctx context.Context, in CheckInput) error {
	in.ExternalID = d.opt.ValidatorJob
	if review.Conclusion(in.Response.Verdict) != "success" || !d.opt.Check {
		_, err := d.post(ctx, in)
		return err
	}
	others, err := d.validationFailures(ctx, in.HeadSHA)
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
	others, err = d.validationFailures(ctx, in.HeadSHA)
	switch {
	case err != nil:
		fail := in
		fail.Conclusion, fail.Title = "failure", unreadTitle
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
func (d *run) failValidator(ctx context.Context, id int64, in CheckInput) error {
	name := review.CheckName(validate.GateID)
	var errs []error
	if id != 0 {
		plan, err := in.plan()
		if err == nil {
			err = d.gh.UpdateCheckRun(ctx, id, github.UpdateCheckRunOptions{Name: name, Status: github.String("completed"),
				Conclusion: github.String(in.Conclusion),
				Output:     &github.CheckRunOutput{Title: github.String(in.Title), Summary: github.String(plan.Summary)}})
		}
		if err != nil {
			d.rep.NotDelivered = append(d.rep.NotDelivered, "the failing update of the check run "+name)
			errs = append(errs, err)
		}
	}
	if d.opt.Status {
		if err := status(ctx, d.gh, in.HeadSHA, name, "failure", in.Title, d.opt.DetailsURL); err != nil {
			d.rep.NotDelivered = append(d.rep.NotDelivered, "the failing status "+name)
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
func (d *run) validationFailures(ctx context.Context, sha string) ([]carry.CheckRun, error) {
	name := review.CheckName(validate.GateID)
	list, err := listRuns(ctx, d.gh, sha, name)
	if err != nil {
		return nil, fmt.Errorf("read the other jobs' %s runs on this commit: %w", name, err)
	}
	app := cmp.Or(d.opt.AppID, carry.ActionsAppID)
	return carry.ValidationFailures(list, name, sha, app, d.opt.ValidatorJob, review.Conclusion), nil
}
