package deliver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/ghapi"
	"github.com/agcgate/agc-action/review"
)

// Big and busy pull requests (docs/github.md, "Big and busy pull
// requests"): a push can land while a run is between its reads and its
// writes, and GitHub does not describe every file of a large pull
// request.

// noHunks are the statuses of a file listed without a patch that has no
// lines to comment on: a removed file, and a file renamed or copied (as
// GitHub lists a 100% rename or copy), which the clone's diff
// (--no-renames) would call all added, lines GitHub's diff lacks, so
// that GitHub would refuse the whole review.
var noHunks = map[string]bool{"removed": true, "renamed": true, "copied": true}

// LoadPR reads the pull request's files (with their patches), and the
// comments, reviews and review threads that gh's login wrote.
func LoadPR(ctx context.Context, gh PullRequest, number int, headSHA string) (*review.PRState, error) {
	st := &review.PRState{Number: number, HeadSHA: headSHA, Diffs: map[string]*review.FileDiff{}, Threads: map[int64]review.Thread{}}
	files, err := gh.Files(ctx, number)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		hunks, err := review.ParsePatch(f.GetPatch())
		if err != nil {
			return nil, fmt.Errorf("pull request file %s: %w", f.GetFilename(), err)
		}
		d := review.NewFileDiff(f.GetFilename(), f.GetStatus(), hunks)
		d.NoPatch = f.GetPatch() == "" && !noHunks[f.GetStatus()]
		st.Diffs[f.GetFilename()] = d
	}
	if st.Comments, err = gh.OwnComments(ctx, number); err != nil {
		return nil, err
	}
	if st.Reviews, err = gh.OwnReviews(ctx, number); err != nil {
		return nil, err
	}
	if len(st.Comments) == 0 {
		return st, nil
	}
	threads, err := gh.Threads(ctx, number)
	if err != nil {
		return nil, err
	}
	for _, t := range threads {
		if len(t.CommentIDs) > 0 {
			st.Threads[t.CommentIDs[0]] = review.Thread(t)
		}
	}
	return st, nil
}

// loadAndPlan reads the pull request and plans every gate's review within
// one run's ceiling (review.NewBudget). It returns no plans when there is
// no review to write: none asked for, the pull request cannot be read (the
// error), or its head is newer than the run's (rep.NewerHead).
func (d *run) loadAndPlan(ctx context.Context, gates []agc.Doc) (*review.PRState, []*review.ReviewPlan, error) {
	if !d.opt.Review || d.opt.PR <= 0 {
		return nil, nil, nil
	}
	info, err := d.headNow(ctx)
	if err != nil {
		return nil, nil, err
	}
	if newer(info, d.opt.HeadSHA) {
		d.noteNewer(info.HeadSHA, "writes no review")
		return nil, nil, nil
	}
	st, err := LoadPR(ctx, d.gh, d.opt.PR, d.opt.HeadSHA)
	if err != nil {
		return nil, nil, err
	}
	st.Truncated = info.ChangedFiles > len(st.Diffs)
	d.fillDiffs(ctx, st, info.BaseSHA, gates)
	plans := make([]*review.ReviewPlan, len(gates))
	b := review.NewBudget()
	for i, g := range gates {
		po := d.opt.Plan
		po.Login, po.Note = d.gh.Login(), d.opt.Notes[g.Response.Gate.ID]
		plans[i] = review.PlanReview(st, g.Response, po, b)
	}
	return st, plans, nil
}

// movedOn re-reads the pull request's head before a write: when a newer
// head exists, the newer run writes, and this one does not (an older run
// must not post after a newer one, nor resolve the threads the newer one
// keeps). It says so on the log and in the report; a failure to read is
// kept and counts as moved on, since nothing may be written blind.
func (d *run) movedOn(ctx context.Context, what string) bool {
	if d.rep.NewerHead != "" {
		return true
	}
	info, err := d.headNow(ctx)
	if err != nil {
		d.errs = append(d.errs, err)
		return true
	}
	if !newer(info, d.opt.HeadSHA) {
		return false
	}
	d.noteNewer(info.HeadSHA, what)
	return true
}

// headLag is how long a run waits before it reads the pull request again
// when GitHub names a head other than the run's: GET /pulls/{n} can lag a
// push and still name the previous head to the run for the new one.
const headLag = 5 * time.Second

// headNow reads the pull request; when it names a head other than the
// run's, it waits headLag and reads it once more, since the run cannot
// tell a lagging answer from a newer head.
func (d *run) headNow(ctx context.Context) (*ghapi.PullInfo, error) {
	info, err := d.gh.Pull(ctx, d.opt.PR)
	if err != nil || !newer(info, d.opt.HeadSHA) {
		return info, err
	}
	if err := d.gh.Sleep(ctx, headLag); err != nil {
		return nil, err
	}
	return d.gh.Pull(ctx, d.opt.PR)
}

// newer reports whether the pull request has a head other than head; a
// pull request with no head named (a dry run's answer) has not. The other
// head is taken as the newer, whose run writes: an older run must not
// write after a newer one.
func newer(info *ghapi.PullInfo, head string) bool { return info.HeadSHA != "" && info.HeadSHA != head }

func (d *run) noteNewer(head, what string) {
	d.rep.NewerHead = head
	fmt.Fprintf(d.opt.Log, "pull request #%d: GitHub names head %s, not %s this run reports on (read twice, %v apart): this run %s (the run for %s does); its check runs are on %s\n",
		d.opt.PR, head, d.opt.HeadSHA, headLag, what, head, d.opt.HeadSHA)
}

// refused reports whether GitHub refused a write as invalid (422), which a
// push between the last read and the write causes: the review's commit is
// no longer the head.
func refused(err error) bool {
	var he *ghapi.HTTPError
	return errors.As(err, &he) && he.Status == http.StatusUnprocessableEntity
}

// notDelivered names, when the head could not be re-read (a newer head is
// not a failure: its run writes them), the reviews from gate from on that
// were not written.
func (d *run) notDelivered(gates []agc.Doc, plans []*review.ReviewPlan, from int) {
	if d.rep.NewerHead != "" {
		return
	}
	for i := from; i < len(gates); i++ {
		if p := plans[i]; p.Review != review.ReviewNone || len(p.Edits) > 0 {
			d.rep.NotDelivered = append(d.rep.NotDelivered, reviewLeft(gates[i].Response.Gate.ID, len(p.New), len(p.Edits)))
		}
	}
}

// reviewLeft names a gate's review that was not written, and what of it.
func reviewLeft(gate string, comments, edits int) string {
	return fmt.Sprintf("the review of %s (%d new inline comments, %d edits)", review.CheckName(gate), comments, edits)
}
