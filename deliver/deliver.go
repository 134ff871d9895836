package deliver

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/carry"
	"github.com/agcgate/agc-action/ghapi"
	"github.com/agcgate/agc-action/review"
)

// Options choose the channels and where degraded output goes.
type Options struct {
	PR      int // 0: not a pull request (no review)
	HeadSHA string
	Review  bool
	Check   bool
	Status  bool
	// Plan places every gate's review; its Login is the client's, its
	// Note the gate's (Notes), and its Head and Links serve the check
	// runs and a degraded run too.
	Plan review.PlanOptions
	// DetailsURL links check runs and statuses to the workflow run.
	DetailsURL string
	// Bindings are agc-action's binding records of the answers it bound,
	// by gate id, each written into its gate's check run.
	Bindings map[string]carry.Binding
	// Notes are agc-action's own paragraphs, by gate id (an escalation:
	// rounds.Escalation.Note), put first in the gate's check run summary
	// and review body. They are trusted Markdown, written as they are.
	Notes map[string]string
	// Annotations and Summary receive workflow commands and the job
	// summary when there is no GitHub to write to or the token turns out
	// to be read-only; a nil Summary gets none (the caller writes its own
	// job summary).
	Annotations io.Writer
	Summary     io.Writer
	// Diffs reads the diffs GitHub does not give (a file listed without
	// its patch, a file past the 3,000 GitHub lists); nil: none.
	Diffs Diffs
	// AppID is the app whose agc/agc-validate runs on the commit are read,
	// so that parallel jobs agree (validator); 0 is carry.ActionsAppID.
	// ValidatorJob is this job's carry.ValidatorJob id.
	AppID        int64
	ValidatorJob string
	// SARIF is where the run's SARIF file is: check runs name it for the
	// findings they have no room to list.
	SARIF review.SARIFPlace
	// Log receives what the run should say of what it did not write and
	// why (a newer head, a file with no hunks); nil: nowhere.
	Log io.Writer
}

// Report says what Deliver did, per gate, and whether it degraded.
type Report struct {
	Reviews  map[string]*ReviewResult // by gate id
	Checks   int
	Statuses int
	Degraded bool
	// NewerHead is set when GitHub names, read twice, a head other than
	// the run's (taken as newer: the head moved on during the run): that
	// head's run writes the review and resolves the threads, this one
	// wrote its check runs and statuses only.
	NewerHead string
	// NotDelivered names what failed to be written, in order (a check
	// run, a review, thread changes), when delivery failed.
	NotDelivered []string
}

// ReviewResult says what a review delivery did of its plan (whose counts
// say where the findings are and what the ceiling left to a later run).
type ReviewResult struct {
	*review.ReviewPlan
	Reviews    int // reviews created
	Posted     int // new inline comments
	Edited     int // comments and review bodies edited
	Resolved   int // threads resolved (findings gone)
	Unresolved int // threads reopened (findings back)
}

// Deliver posts every gate's review, check run and status through gh:
// gates are the gates' responses as read (Response set; Raw, when set, is
// embedded in the check run as the gate wrote it). With no gh (nil), or
// when GitHub answers 403 "Resource not accessible by integration", it
// writes every gate's findings as workflow annotations and to the job
// summary instead, and reports Degraded (not an error): nothing is dropped.
func Deliver(ctx context.Context, gh GitHub, gates []agc.Doc, opt Options) (*Report, error) {
	rep := &Report{Reviews: map[string]*ReviewResult{}}
	if opt.Plan.Head != nil {
		opt.Plan.Head = review.CachedFiles(opt.Plan.Head)
	}
	if opt.Log == nil {
		opt.Log = io.Discard
	}
	if gh != nil {
		d := &run{gh: gh, opt: opt, rep: rep}
		err := d.deliver(ctx, gates)
		if err == nil || !ghapi.IsReadOnly(err) {
			return rep, err
		}
	}
	rep.Degraded = true
	return rep, review.Degrade(opt.Annotations, opt.Summary, gates, opt.Plan.Head, opt.Plan.Links)
}

// run is one delivery.
type run struct {
	gh   GitHub
	opt  Options
	rep  *Report
	errs []error
}

// deliver reads the pull request and plans every gate's review within one
// run's ceiling (review.NewBudget) first, then posts each gate's check run
// and status, so a required check never waits on a review that failed and
// says where the findings that did not fit are, then the reviews, then
// every gate's thread changes together. A failure of one gate does not
// stop the others; a read-only token stops everything.
func (d *run) deliver(ctx context.Context, gates []agc.Doc) error {
	st, plans, err := d.loadAndPlan(ctx, gates)
	if err != nil {
		if ghapi.IsReadOnly(err) {
			return err
		}
		d.errs = append(d.errs, err)
	}
	for i, g := range gates {
		var p *review.ReviewPlan
		if plans != nil {
			p = plans[i]
		}
		err := d.checks(ctx, g, p)
		if ghapi.IsReadOnly(err) {
			return err
		}
		d.errs = append(d.errs, err)
	}
	if st == nil {
		return errors.Join(d.errs...)
	}
	if d.movedOn(ctx, "writes no review") {
		d.notDelivered(gates, plans, 0)
		return errors.Join(d.errs...)
	}
	var reopen, resolve []string
	results := make([]*ReviewResult, len(gates))
	for i, g := range gates {
		res, err := d.postReview(ctx, st, plans[i])
		if ghapi.IsReadOnly(err) {
			return err
		}
		d.rep.Reviews[g.Response.Gate.ID], results[i] = res, res
		if err != nil {
			results[i] = nil // its threads wait for a run that posts its review
			// a refusal with a newer head is the newer run's to write; one
			// whose head cannot be re-read stops here, this review lost too
			stop := refused(err) && d.movedOn(ctx, "writes no more reviews")
			if !stop || d.rep.NewerHead == "" {
				d.errs = append(d.errs, fmt.Errorf("gate %s: %w", g.Response.Gate.ID, err))
				d.rep.NotDelivered = append(d.rep.NotDelivered, reviewLeft(g.Response.Gate.ID, len(plans[i].New)-res.Posted, len(plans[i].Edits)-res.Edited))
			}
			if stop {
				d.notDelivered(gates, plans, i+1)
				return errors.Join(d.errs...)
			}
			continue
		}
		reopen, resolve = append(reopen, plans[i].Reopen...), append(resolve, plans[i].Resolve...)
	}
	if len(reopen)+len(resolve) > 0 && d.movedOn(ctx, "resolves and reopens no threads") {
		if d.rep.NewerHead == "" {
			d.rep.NotDelivered = append(d.rep.NotDelivered, fmt.Sprintf("%d thread changes", len(reopen)+len(resolve)))
		}
		return errors.Join(d.errs...)
	}
	if err := setThreads(ctx, d.gh, reopen, resolve); err != nil {
		if ghapi.IsReadOnly(err) {
			return err
		}
		d.rep.NotDelivered = append(d.rep.NotDelivered, fmt.Sprintf("%d thread changes", len(reopen)+len(resolve)))
		return errors.Join(append(d.errs, err)...)
	}
	for i, res := range results {
		if res != nil {
			res.Resolved, res.Unresolved = len(plans[i].Resolve), len(plans[i].Reopen)
		}
	}
	return errors.Join(d.errs...)
}

// postReview writes a plan's edits and its one review; its threads are
// the caller's, as one run resolves every gate's threads together.
func (d *run) postReview(ctx context.Context, st *review.PRState, p *review.ReviewPlan) (*ReviewResult, error) {
	res := &ReviewResult{ReviewPlan: p}
	for _, e := range p.Edits {
		if err := d.gh.EditComment(ctx, e.CommentID, e.Body); err != nil {
			return res, err
		}
		res.Edited++
	}
	switch p.Review {
	case review.ReviewCreate:
		if err := d.gh.CreateReview(ctx, st.Number, st.HeadSHA, p.Body, p.New); err != nil {
			return res, err
		}
		res.Reviews++
		res.Posted += len(p.New)
	case review.ReviewEditBody:
		if err := d.gh.EditReview(ctx, st.Number, p.ReviewID, p.Body); err != nil {
			return res, err
		}
		res.Edited++
	}
	return res, nil
}

// setThreads reopens and resolves review threads, reopening first,
// review.ThreadsPerRequest per request: the ceiling (review.Budget) keeps
// a run's threads within review.MaxThreadRequestsPerRun requests.
func setThreads(ctx context.Context, gh Reviews, reopen, resolve []string) error {
	for len(reopen)+len(resolve) > 0 {
		n := min(len(reopen), review.ThreadsPerRequest)
		m := min(len(resolve), review.ThreadsPerRequest-n)
		if err := gh.SetThreads(ctx, reopen[:n], resolve[:m]); err != nil {
			return err
		}
		reopen, resolve = reopen[n:], resolve[m:]
	}
	return nil
}
