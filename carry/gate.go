package carry

import (
	"context"
	"errors"
	"fmt"
	"slices"
)

// ActionsAppID is the id of the GitHub Actions app on github.com: the app
// behind GITHUB_TOKEN, whose check runs a workflow writes, and the app
// trusted by default. GitHub Enterprise Server has its own id (the app.id
// of any workflow check run).
const ActionsAppID = 15368

// DefaultHeads bounds the earlier heads Gate looks at.
const DefaultHeads = 10

// GitHub is what carrying asks of GitHub; deliver.CarryRuns implements it.
type GitHub interface {
	CheckRuns
	// PullRequestCommits returns the ids of a pull request's commits,
	// oldest first, as GitHub lists them.
	PullRequestCommits(ctx context.Context, number int) ([]string, error)
	// Conclusion is the conclusion of a check run of verdict, as the
	// client writes one.
	Conclusion(verdict string) string
}

// Options say which gate's verdict to carry to which head.
type Options struct {
	Gate  string // the gate id; its check run is agc/<Gate>
	AppID int64  // only check runs by this app are trusted; 0 is ActionsAppID
	// HeadSHA is the new head, where a carried run is posted: a pull
	// request's, a merge group's, or a push's.
	HeadSHA string
	// Rev is the revision fingerprinted, "" for HeadSHA (pass the merge
	// commit when that is what the workflow checked out and the gates judge).
	Rev string
	// Before is the before of a pull_request synchronize event ("" when
	// the event has none). It is looked at first.
	Before string
	// PR is the pull request number: its earlier commits are looked at when
	// Before has no trusted run (0: Before only). On merge_group it is the
	// pull request the group was made for, and after a merge the one the
	// push merged (MergedPR), with no Before: their heads are what the
	// gates judged.
	PR       int
	MaxHeads int // earlier heads looked at; 0 is DefaultHeads
	// Workflow is the scope and gate configuration the workflow defines
	// (ReadWorkflow); nothing is carried when it defines no scope.
	Workflow Workflow
	// Compute fingerprints a revision (RepoFingerprinter over the checkout).
	Compute Fingerprinter
	// Have says whether the commit a binding names can be read (in the
	// clone, or fetched by its id: Reachable): nil error, and its
	// fingerprint is recomputed there; otherwise why not, and the binding
	// record of the trusted run is taken as it is. nil: never recomputed.
	Have func(ctx context.Context, sha string) error
}

// Gate decides, for one gate on a pull request's new head, whether its
// previous verdict carries: it finds the latest agc/<gate> check run on
// the previous head (Before), else on the pull request's earlier commits,
// written by the same app; reads back its binding record and embedded
// response; recomputes the fingerprint at the new head over the workflow's
// scope (and at the commit judged, when it can be read); and when it is
// unchanged posts the same conclusion on the new head, titled "carried
// from <short sha>: scope unchanged", linking the run that judged, with
// the carried response and its binding record embedded. Result.Carried says whether it did; Reason and Changes say why
// not. Failures carry like successes.
func Gate(ctx context.Context, gh GitHub, o Options) (*Result, error) {
	if o.Gate == "" || o.HeadSHA == "" || o.Compute == nil {
		return nil, errors.New("carry: a gate, a head and a fingerprinter are required")
	}
	if !o.Workflow.Defined() {
		return &Result{Reason: ErrNoScope.Error()}, nil
	}
	if o.AppID == 0 {
		o.AppID = ActionsAppID
	}
	if o.MaxHeads <= 0 {
		o.MaxHeads = DefaultHeads
	}
	tried := PreviousHeads(o.HeadSHA, o.Before, nil, o.MaxHeads)
	if len(tried) > 0 {
		if res, err := fromHeads(ctx, gh, o, tried, gh.Conclusion); err != nil || res.From != nil || o.PR <= 0 {
			return res, err
		}
	}
	if o.PR <= 0 {
		return &Result{Reason: "no earlier head: neither a synchronize event's before nor a pull request"}, nil
	}
	commits, err := gh.PullRequestCommits(ctx, o.PR)
	if err != nil {
		return nil, err
	}
	var heads []string
	for _, sha := range PreviousHeads(o.HeadSHA, "", commits, o.MaxHeads) {
		if !slices.Contains(tried, sha) {
			heads = append(heads, sha)
		}
	}
	res, err := fromHeads(ctx, gh, o, heads, gh.Conclusion)
	if err == nil && res.From == nil {
		res.Reason = fmt.Sprintf("no completed %s check run by app %d on %d earlier heads of pull request %d",
			CheckName(o.Gate), o.AppID, len(tried)+len(heads), o.PR)
	}
	return res, err
}

// PullRequest is what carrying reads of a pull request a commit belongs
// to.
type PullRequest struct {
	Number int
	Base   string // its base branch
	// MergeCommitSHA is the commit its merge made; "" when not merged.
	MergeCommitSHA string
}

// CommitPulls finds the pull request a push merged; deliver.CarryRuns
// implements it.
type CommitPulls interface {
	// CommitPullRequests lists the pull requests commit sha belongs to or
	// was merged by (GET /repos/{o}/{r}/commits/{sha}/pulls).
	CommitPullRequests(ctx context.Context, sha string) ([]PullRequest, error)
}

// MergedPR returns the number of the pull request whose merge into branch
// is commit sha (a merge, squash or rebase: GitHub's merge_commit_sha), 0
// when no listed pull request is, or when more than one claims it. Its
// heads are where the verdicts now standing for sha were judged: a push to
// the base branch after the merge carries from them, as Gate does with
// Options.PR.
func MergedPR(ctx context.Context, gh CommitPulls, sha, branch string) (int, error) {
	prs, err := gh.CommitPullRequests(ctx, sha)
	if err != nil {
		return 0, fmt.Errorf("the pull requests of %s: %w", Short(sha), err)
	}
	n := 0
	for _, pr := range prs {
		if pr.MergeCommitSHA != sha || pr.Base != branch || pr.Number <= 0 {
			continue
		}
		if n != 0 && n != pr.Number {
			return 0, nil
		}
		n = pr.Number
	}
	return n, nil
}
