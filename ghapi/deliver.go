package ghapi

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/carry"
	"github.com/agcgate/agc-action/review"
	"github.com/agcgate/agc-action/validate"
)

// DeliverOptions choose the channels and where degraded output goes.
type DeliverOptions struct {
	PR        int // 0: not a pull request (no review)
	HeadSHA   string
	Review    bool
	Check     bool
	Status    bool
	Placement ReviewOptions
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
	// summary when the token turns out to be read-only; a nil Summary
	// gets none (the caller writes its own job summary).
	Annotations io.Writer
	Summary     io.Writer
	// Diffs reads the diffs GitHub does not give (a file listed without
	// its patch, a file past the 3,000 GitHub lists); nil: none.
	Diffs DiffSource
	// AppID is the app whose agc/agc-validate runs on the commit are read,
	// so that parallel jobs agree (deliverValidator); 0 is
	// carry.ActionsAppID. ValidatorJob is this job's carry.ValidatorJob id.
	AppID        int64
	ValidatorJob string
	// SARIF is where the run's SARIF file is (the Action's sarif-file
	// output, and whether it is uploaded to code scanning): check runs
	// name it for the findings they have no room to list.
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

// Deliver posts every gate's review, check run and status: gates are
// the gates' responses as read (Response set; Raw, when set, is embedded in
// the check run as the gate wrote it). When GitHub
// answers 403 "Resource not accessible by integration" it stops writing,
// writes every gate's findings as workflow annotations and to the job
// summary, and reports Degraded (not an error): nothing is dropped.
func (c *Client) Deliver(ctx context.Context, gates []agc.Doc, opt DeliverOptions) (*Report, error) {
	rep := &Report{Reviews: map[string]*ReviewResult{}}
	err := c.deliver(ctx, gates, opt, rep)
	if err == nil || !IsReadOnly(err) {
		return rep, err
	}
	rep.Degraded = true
	return rep, review.Degrade(opt.Annotations, opt.Summary, gates, opt.Placement.Head, opt.Placement.Links)
}

// deliver reads the pull request and plans every gate's review within one
// run's ceiling (review.NewBudget) first, then posts each gate's check run
// and status, so a required check never waits on a review that failed and
// says where the findings that did not fit are, then the reviews, then
// every gate's thread changes together. A failure of one gate does not
// stop the others; a read-only token stops everything.
func (c *Client) deliver(ctx context.Context, gates []agc.Doc, opt DeliverOptions, rep *Report) error {
	if opt.Placement.Head != nil {
		opt.Placement.Head = review.CachedFiles(opt.Placement.Head)
	}
	if opt.Log == nil {
		opt.Log = io.Discard
	}
	st, errs := c.loadAndPlan(ctx, gates, opt, rep)
	if len(errs) > 0 && IsReadOnly(errs[0]) {
		return errs[0]
	}
	var plans []*review.ReviewPlan
	if st != nil {
		plans = st.plans
	}
	for i, g := range gates {
		var p *review.ReviewPlan
		if plans != nil {
			p = plans[i]
		}
		err := c.deliverChecks(ctx, g, p, opt, rep)
		if IsReadOnly(err) {
			return err
		}
		errs = append(errs, err)
	}
	if st == nil {
		return errors.Join(errs...)
	}
	if c.movedOn(ctx, opt, rep, "writes no review", &errs) {
		notDelivered(rep, gates, plans, 0)
		return errors.Join(errs...)
	}
	var reopen, resolve []string
	results := make([]*ReviewResult, len(gates))
	for i, g := range gates {
		res, err := c.postReview(ctx, st.PRState, plans[i])
		if IsReadOnly(err) {
			return err
		}
		rep.Reviews[g.Response.Gate.ID], results[i] = res, res
		if err != nil {
			results[i] = nil // its threads wait for a run that posts its review
			// a refusal with a newer head is the newer run's to write; one
			// whose head cannot be re-read stops here, this review lost too
			stop := refused(err) && c.movedOn(ctx, opt, rep, "writes no more reviews", &errs)
			if !stop || rep.NewerHead == "" {
				errs = append(errs, fmt.Errorf("gate %s: %w", g.Response.Gate.ID, err))
				rep.NotDelivered = append(rep.NotDelivered, reviewLeft(g.Response.Gate.ID, len(plans[i].New)-res.Posted, len(plans[i].Edits)-res.Edited))
			}
			if stop {
				notDelivered(rep, gates, plans, i+1)
				return errors.Join(errs...)
			}
			continue
		}
		reopen, resolve = append(reopen, plans[i].Reopen...), append(resolve, plans[i].Resolve...)
	}
	if len(reopen)+len(resolve) > 0 && c.movedOn(ctx, opt, rep, "resolves and reopens no threads", &errs) {
		if rep.NewerHead == "" {
			rep.NotDelivered = append(rep.NotDelivered, fmt.Sprintf("%d thread changes", len(reopen)+len(resolve)))
		}
		return errors.Join(errs...)
	}
	if err := c.setThreads(ctx, reopen, resolve); err != nil {
		if IsReadOnly(err) {
			return err
		}
		rep.NotDelivered = append(rep.NotDelivered, fmt.Sprintf("%d thread changes", len(reopen)+len(resolve)))
		return errors.Join(append(errs, err)...)
	}
	for i, res := range results {
		if res != nil {
			res.Resolved, res.Unresolved = len(plans[i].Resolve), len(plans[i].Reopen)
		}
	}
	return errors.Join(errs...)
}

func (c *Client) deliverChecks(ctx context.Context, g agc.Doc, p *review.ReviewPlan, opt DeliverOptions, rep *Report) error {
	r := g.Response
	if !opt.Check && !opt.Status {
		return nil
	}
	in := CheckInput{HeadSHA: opt.HeadSHA, Response: r, Raw: g.Raw, Head: opt.Placement.Head, DetailsURL: opt.DetailsURL, Plan: p, Note: opt.Notes[r.Gate.ID], Links: opt.Placement.Links, SARIF: opt.SARIF}
	if b, ok := opt.Bindings[r.Gate.ID]; ok {
		in.Binding = &b
	}
	if r.Gate.ID == validate.GateID {
		return c.deliverValidator(ctx, in, opt, rep)
	}
	if opt.Check {
		if _, err := c.CheckRun(ctx, in); err != nil {
			rep.NotDelivered = append(rep.NotDelivered, "the check run "+review.CheckName(r.Gate.ID))
			return fmt.Errorf("gate %s: %w", r.Gate.ID, err)
		}
		rep.Checks++
	}
	if opt.Status {
		if err := c.Status(ctx, opt.HeadSHA, r, opt.DetailsURL); err != nil {
			rep.NotDelivered = append(rep.NotDelivered, "the status "+review.CheckName(r.Gate.ID))
			return fmt.Errorf("gate %s: %w", r.Gate.ID, err)
		}
		rep.Statuses++
	}
	return nil
}
