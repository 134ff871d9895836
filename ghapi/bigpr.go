package ghapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"time"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/fingerprint"
	"github.com/agcgate/agc-action/internal/logsafe"
	"github.com/agcgate/agc-action/review"
)

// Big and busy pull requests (docs/github.md, "Big and busy pull
// requests"): a push can land while a run is between its reads and its
// writes, and GitHub does not describe every file of a large pull
// request.

// PullInfo is what GET /pulls/{n} says of a pull request now.
type PullInfo struct {
	HeadSHA, BaseSHA, BaseRef string
	ChangedFiles              int
}

// Pull reads the pull request's current head and base (GET /pulls/{n}).
// GitHub answers it, so the head it names is trusted.
func (c *Client) Pull(ctx context.Context, number int) (*PullInfo, error) {
	pr, _, err := c.gh.PullRequests.Get(ctx, c.cfg.Owner, c.cfg.Repo, number)
	if err != nil {
		return nil, wrap(fmt.Sprintf("get pull request #%d", number), err)
	}
	return &PullInfo{HeadSHA: pr.GetHead().GetSHA(), BaseSHA: pr.GetBase().GetSHA(), BaseRef: pr.GetBase().GetRef(), ChangedFiles: pr.GetChangedFiles()}, nil
}

// DiffSource reads diffs from somewhere other than GitHub's list of
// files: the clone, `git diff BASE...HEAD -- PATH...`.
type DiffSource interface {
	// FileDiffs returns the diffs of paths between the pull request's base
	// and head commits (as GitHub names them: `git diff base...head`); a
	// path the pull request does not change is absent. An error says why
	// none could be read.
	FileDiffs(ctx context.Context, base, head string, paths []string) (map[string]SourcedDiff, error)
}

// SourcedDiff is one file's diff as a DiffSource read it.
type SourcedDiff struct {
	Hunks  []review.Hunk
	Status string // added, modified, removed
	Why    string // when there are no hunks: why (a binary file)
}

// MaxSourcedDiffs bounds the files whose diff one run reads from the
// clone: a judged party decides how many files its findings name, and
// only MaxInlinePerRun findings can be inline anyway.
const MaxSourcedDiffs = 1000

// fillDiffs reads from src the diffs GitHub did not give of the files the
// gates' findings are in: a file listed without its patch, and, when the
// list was cut short, a file not listed. Only files with findings are
// read, each once, in one batch: the rest of a 5,000-file pull request
// costs nothing. What cannot be read leaves its findings off the diff (the
// file's entry in the review, or the review body) and the log says why.
func fillDiffs(ctx context.Context, st *review.PRState, base string, gates []agc.Doc, src DiffSource, log io.Writer) {
	need := map[string]bool{}
	for _, g := range gates {
		for i := range g.Response.Findings {
			path, _ := agc.LocationFile(g.Response.Findings[i].Location)
			if path == "" {
				continue
			}
			d, listed := st.Diffs[path]
			if listed && d.NoPatch || !listed && st.Truncated {
				need[path] = true
			}
		}
	}
	paths := slices.DeleteFunc(slices.Sorted(maps.Keys(need)), func(path string) bool {
		if fingerprint.InTree(path) {
			return false
		}
		// the judged party names it: one such path must not cost every
		// other file its diff (git refuses the whole call)
		fmt.Fprintf(log, "%s: not a path in the tree (a clean relative path of a file): its diff is not read from the clone, and its findings are not inline\n", logsafe.Name(path))
		return true
	})
	if len(paths) > MaxSourcedDiffs {
		fmt.Fprintf(log, "findings name %d files GitHub gave no diff of; the diffs of the first %d are read from the clone, the others' findings are not inline\n", len(paths), MaxSourcedDiffs)
		paths = paths[:MaxSourcedDiffs]
	}
	if len(paths) == 0 {
		return
	}
	gave := func(listed bool) string {
		if listed {
			return "GitHub listed it without a patch (too large or binary)"
		}
		return "GitHub lists at most 3,000 files and did not list it"
	}
	if src == nil {
		for _, path := range paths {
			_, listed := st.Diffs[path]
			fmt.Fprintf(log, "%s: %s, and there is no clone to read its diff from: its findings are not inline\n", logsafe.Name(path), gave(listed))
		}
		return
	}
	diffs, err := src.FileDiffs(ctx, base, st.HeadSHA, paths)
	if err != nil {
		fmt.Fprintf(log, "the diffs of %d files GitHub did not give (%s, ...) cannot be read from the clone (%s): their findings are not inline\n", len(paths), logsafe.Name(paths[0]), logsafe.Line(err.Error()))
		return
	}
	for _, path := range paths {
		d, listed := st.Diffs[path]
		sd, changed := diffs[path]
		switch {
		case !changed && !listed:
			continue // not changed by the pull request: not in it
		case len(sd.Hunks) == 0:
			fmt.Fprintf(log, "%s: %s, and the clone's diff has no hunks (%s): its findings go to the file's entry in the review\n", logsafe.Name(path), gave(listed), logsafe.Line(sd.Why))
		}
		status := sd.Status
		if listed {
			status = d.Status
		}
		nd := review.NewFileDiff(path, status, sd.Hunks)
		nd.NoPatch = len(sd.Hunks) == 0
		st.Diffs[path] = nd
	}
}

// plannedPR is the pull request as read before writing, with every
// gate's plan.
type plannedPR struct {
	*review.PRState
	plans []*review.ReviewPlan
}

// loadAndPlan reads the pull request and plans every gate's review within
// one run's ceiling (review.NewBudget). It returns nil when there is no
// review to write: none asked for, the pull request cannot be read (the
// error), or its head is newer than the run's (rep.NewerHead).
func (c *Client) loadAndPlan(ctx context.Context, gates []agc.Doc, opt DeliverOptions, rep *Report) (*plannedPR, []error) {
	if !opt.Review || opt.PR <= 0 {
		return nil, nil
	}
	info, err := c.headNow(ctx, opt)
	if err == nil && newer(info, opt.HeadSHA) {
		noteNewer(opt, rep, info.HeadSHA, "writes no review")
		return nil, nil
	}
	if err == nil {
		var st *review.PRState
		if st, err = c.LoadPR(ctx, opt.PR, opt.HeadSHA); err == nil {
			st.Truncated = info.ChangedFiles > len(st.Diffs)
			fillDiffs(ctx, st, info.BaseSHA, gates, opt.Diffs, opt.Log)
			p := &plannedPR{PRState: st, plans: make([]*review.ReviewPlan, len(gates))}
			b := review.NewBudget()
			for i, g := range gates {
				po := opt.Placement
				po.Note = opt.Notes[g.Response.Gate.ID]
				p.plans[i] = c.planReview(st, g.Response, po, b)
			}
			return p, nil
		}
	}
	return nil, []error{err}
}

// movedOn re-reads the pull request's head before a write: when a newer
// head exists, the newer run writes, and this one does not (an older run
// must not post after a newer one, nor resolve the threads the newer one
// keeps). It says so on the log and in rep; a failure to read is added to
// errs and counts as moved on, since nothing may be written blind.
func (c *Client) movedOn(ctx context.Context, opt DeliverOptions, rep *Report, what string, errs *[]error) bool {
	if rep.NewerHead != "" {
		return true
	}
	info, err := c.headNow(ctx, opt)
	if err != nil {
		*errs = append(*errs, err)
		return true
	}
	if !newer(info, opt.HeadSHA) {
		return false
	}
	noteNewer(opt, rep, info.HeadSHA, what)
	return true
}

// headLag is how long a run waits before it reads the pull request again
// when GitHub names a head other than the run's: GET /pulls/{n} can lag a
// push and still name the previous head to the run for the new one.
const headLag = 5 * time.Second

// headNow reads the pull request; when it names a head other than the
// run's, it waits headLag (the client's Sleep) and reads it once more,
// since the run cannot tell a lagging answer from a newer head.
func (c *Client) headNow(ctx context.Context, opt DeliverOptions) (*PullInfo, error) {
	info, err := c.Pull(ctx, opt.PR)
	if err != nil || !newer(info, opt.HeadSHA) {
		return info, err
	}
	if err := c.cfg.Retry.withDefaults().Sleep(ctx, headLag); err != nil {
		return nil, err
	}
	return c.Pull(ctx, opt.PR)
}

// newer reports whether the pull request has a head other than head; a
// pull request with no head named (a dry run's answer) has not. The other
// head is taken as the newer, whose run writes: an older run must not
// write after a newer one.
func newer(info *PullInfo, head string) bool { return info.HeadSHA != "" && info.HeadSHA != head }

func noteNewer(opt DeliverOptions, rep *Report, head, what string) {
	rep.NewerHead = head
	fmt.Fprintf(opt.Log, "pull request #%d: GitHub names head %s, not %s this run reports on (read twice, %v apart): this run %s (the run for %s does); its check runs are on %s\n",
		opt.PR, head, opt.HeadSHA, headLag, what, head, opt.HeadSHA)
}

// refused reports whether GitHub refused a write as invalid (422), which a
// push between the last read and the write causes: the review's commit is
// no longer the head.
func refused(err error) bool {
	var he *HTTPError
	return errors.As(err, &he) && he.Status == http.StatusUnprocessableEntity
}

// notDelivered names, when the head could not be re-read (a newer head is
// not a failure: its run writes them), the reviews from gate from on that
// were not written.
func notDelivered(rep *Report, gates []agc.Doc, plans []*review.ReviewPlan, from int) {
	if rep.NewerHead != "" {
		return
	}
	for i := from; i < len(gates); i++ {
		if p := plans[i]; p.Review != review.ReviewNone || len(p.Edits) > 0 {
			rep.NotDelivered = append(rep.NotDelivered, reviewLeft(gates[i].Response.Gate.ID, len(p.New), len(p.Edits)))
		}
	}
}

// reviewLeft names a gate's review that was not written, and what of it.
func reviewLeft(gate string, comments, edits int) string {
	return fmt.Sprintf("the review of %s (%d new inline comments, %d edits)", review.CheckName(gate), comments, edits)
}
