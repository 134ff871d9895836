package ghapi

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/agcgate/agc-action/fingerprint/ghcarry"
	"github.com/google/go-github/v62/github"
)

// ActionsAppID is the id of the GitHub Actions app on github.com: the app
// behind GITHUB_TOKEN, whose check runs a workflow writes. GitHub
// Enterprise Server has its own id (the app.id of any workflow check run).
const ActionsAppID = 15368

// DefaultCarryHeads bounds the earlier heads CarryGate looks at.
const DefaultCarryHeads = 10

// CarryRuns is the client as ghcarry sees it: check runs listed by name
// with the app that wrote them and their embedded responses, and carried
// runs created.
type CarryRuns struct{ c *Client }

var _ ghcarry.CheckRuns = (*CarryRuns)(nil)

// CarryRuns returns c as ghcarry.CheckRuns.
func (c *Client) CarryRuns() *CarryRuns { return &CarryRuns{c: c} }

// List returns the check runs named name on sha, of every app, all pages
// (filter=all: GitHub's default "latest" would hide our run behind a later
// one of the same name).
func (r *CarryRuns) List(ctx context.Context, sha, name string) ([]ghcarry.CheckRun, error) {
	opt := &github.ListCheckRunsOptions{CheckName: github.String(name), Filter: github.String("all"),
		ListOptions: github.ListOptions{PerPage: perPage}}
	var out []ghcarry.CheckRun
	for {
		res, resp, err := r.c.gh.Checks.ListCheckRunsForRef(ctx, r.c.cfg.Owner, r.c.cfg.Repo, sha, opt)
		if err != nil {
			return nil, wrap("list check runs "+name+" on "+sha, err)
		}
		for _, run := range res.CheckRuns {
			out = append(out, carryRun(run))
		}
		if resp.NextPage == 0 {
			return out, nil
		}
		opt.Page = resp.NextPage
	}
}

func carryRun(run *github.CheckRun) ghcarry.CheckRun {
	cr := ghcarry.CheckRun{ID: run.GetID(), AppID: run.GetApp().GetID(), Name: run.GetName(), HeadSHA: run.GetHeadSHA(),
		Status: run.GetStatus(), Conclusion: run.GetConclusion(), HTMLURL: run.GetHTMLURL(), DetailsURL: run.GetDetailsURL()}
	raw, err := ReadBackRaw(run)
	switch {
	case err == nil:
		cr.Response = raw
	case !errors.Is(err, ErrNotEmbedded):
		cr.ResponseErr = err.Error()
	}
	return cr
}

// Create posts a completed check run with the carried response embedded
// in output.text, as CheckRun embeds a gate's.
func (r *CarryRuns) Create(ctx context.Context, n ghcarry.NewCheckRun) error {
	out := &github.CheckRunOutput{Title: github.String(n.Title), Summary: github.String(cutRunes(n.Summary, MaxCheckText)),
		Text: github.String(EmbedResponse(n.Response))}
	opt := github.CreateCheckRunOptions{Name: n.Name, HeadSHA: n.HeadSHA, Status: github.String("completed"),
		Conclusion: github.String(n.Conclusion), Output: out}
	if n.DetailsURL != "" {
		opt.DetailsURL = github.String(n.DetailsURL)
	}
	if _, _, err := r.c.gh.Checks.CreateCheckRun(ctx, r.c.cfg.Owner, r.c.cfg.Repo, opt); err != nil {
		return wrap("create check run "+n.Name, err)
	}
	return nil
}

// PullRequestCommits returns the ids of a pull request's commits, oldest
// first, as GitHub lists them (at most 250).
func (c *Client) PullRequestCommits(ctx context.Context, number int) ([]string, error) {
	opt := &github.ListOptions{PerPage: perPage}
	var out []string
	for {
		cs, resp, err := c.gh.PullRequests.ListCommits(ctx, c.cfg.Owner, c.cfg.Repo, number, opt)
		if err != nil {
			return nil, wrap(fmt.Sprintf("list commits of pull request %d", number), err)
		}
		for _, cm := range cs {
			out = append(out, cm.GetSHA())
		}
		if resp.NextPage == 0 {
			return out, nil
		}
		opt.Page = resp.NextPage
	}
}

// CarryOptions say which gate's verdict to carry to which head.
type CarryOptions struct {
	Gate    string // the gate id; its check run is agc/<Gate>
	AppID   int64  // only check runs by this app are trusted; 0 is ActionsAppID
	HeadSHA string // the pull request's new head, where a carried run is posted
	// Rev is the revision fingerprinted, "" for HeadSHA (pass the merge
	// commit when that is what the workflow checked out and the gates judge).
	Rev string
	// Before is the before of a pull_request synchronize event ("" when
	// the event has none). It is looked at first.
	Before string
	// PR is the pull request number: its earlier commits are looked at when
	// Before has no trusted run (0: Before only).
	PR       int
	MaxHeads int // earlier heads looked at; 0 is DefaultCarryHeads
	// Compute fingerprints a revision for a previous response:
	// ghcarry.RepoFingerprinter over the checkout, with the scope file read
	// from the base branch and the gate's configuration files.
	Compute ghcarry.Fingerprinter
}

// CarryGate decides, for one gate on a pull request's new head, whether its
// previous verdict carries: it finds the latest agc/<gate> check run on
// the previous head (Before), else on the pull request's earlier commits,
// written by the same app; reads back the embedded response; recomputes
// the fingerprint at the new head; and when it is unchanged posts the same
// conclusion on the new head, titled "carried from <short sha>: scope
// unchanged", linking the run that judged, with the carried response
// embedded. Result.Carried says whether it did; Reason and Changes say why
// not. Failures carry like successes.
func (c *Client) CarryGate(ctx context.Context, o CarryOptions) (*ghcarry.Result, error) {
	if o.Gate == "" || o.HeadSHA == "" || o.Compute == nil {
		return nil, errors.New("carry: a gate, a head and a fingerprinter are required")
	}
	if o.AppID == 0 {
		o.AppID = ActionsAppID
	}
	if o.MaxHeads <= 0 {
		o.MaxHeads = DefaultCarryHeads
	}
	in := ghcarry.Input{GateID: o.Gate, AppID: o.AppID, Head: o.HeadSHA, Rev: o.Rev, Compute: o.Compute, Conclusion: Conclusion,
		Previous: ghcarry.PreviousHeads(o.HeadSHA, o.Before, nil, o.MaxHeads)}
	runs := c.CarryRuns()
	var res *ghcarry.Result
	if len(in.Previous) > 0 {
		var err error
		if res, err = ghcarry.Carry(ctx, runs, in); err != nil || res.From != nil || o.PR <= 0 {
			return res, err
		}
	}
	if o.PR <= 0 {
		return &ghcarry.Result{Reason: "no earlier head: neither a synchronize event's before nor a pull request"}, nil
	}
	commits, err := c.PullRequestCommits(ctx, o.PR)
	if err != nil {
		return nil, err
	}
	tried := in.Previous
	in.Previous = nil
	for _, sha := range ghcarry.PreviousHeads(o.HeadSHA, "", commits, o.MaxHeads) {
		if !slices.Contains(tried, sha) {
			in.Previous = append(in.Previous, sha)
		}
	}
	if res, err = ghcarry.Carry(ctx, runs, in); err != nil {
		return nil, err
	}
	if res.From == nil {
		res.Reason = fmt.Sprintf("no completed %s check run by app %d on %d earlier heads of pull request %d",
			ghcarry.CheckName(o.Gate), o.AppID, len(tried)+len(in.Previous), o.PR)
	}
	return res, nil
}
