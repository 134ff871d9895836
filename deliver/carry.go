package deliver

import (
	"context"
	"errors"

	"github.com/agcgate/agc-action/carry"
	"github.com/agcgate/agc-action/review"
	"github.com/google/go-github/v62/github"
)

// Commits lists a pull request's commits, oldest first, and the pull
// requests a commit belongs to or was merged by.
type Commits interface {
	PullRequestCommits(ctx context.Context, number int) ([]string, error)
	CommitPullRequests(ctx context.Context, sha string) ([]*github.PullRequest, error)
}

// Runs is GitHub as carry (carry.GitHub, carry.CommitPulls), rounds
// (rounds.Reader) and a decision see it: check runs with the app that
// wrote them and their embedded responses and binding records, carried
// runs created, a pull request's commits. The policy (which heads, which
// runs are trusted) is carry's.
type Runs struct{ runPorts }

type runPorts interface {
	Checks
	Commits
}

var (
	_ carry.GitHub      = Runs{}
	_ carry.CommitPulls = Runs{}
)

// CarryRuns returns gh as carry sees it.
func CarryRuns(gh runPorts) Runs { return Runs{gh} }

// List returns the check runs named name on sha, of every app.
func (r Runs) List(ctx context.Context, sha, name string) ([]carry.CheckRun, error) {
	return listRuns(ctx, r.runPorts, sha, name)
}

func listRuns(ctx context.Context, gh Checks, sha, name string) ([]carry.CheckRun, error) {
	runs, err := gh.CheckRuns(ctx, sha, name)
	if err != nil {
		return nil, err
	}
	out := make([]carry.CheckRun, len(runs))
	for i, run := range runs {
		out[i] = carryRun(run)
	}
	return out, nil
}

func carryRun(run *github.CheckRun) carry.CheckRun {
	cr := carry.CheckRun{ID: run.GetID(), AppID: run.GetApp().GetID(), Name: run.GetName(), HeadSHA: run.GetHeadSHA(),
		Status: run.GetStatus(), Conclusion: run.GetConclusion(), Completed: run.GetCompletedAt().Time, HTMLURL: run.GetHTMLURL(), DetailsURL: run.GetDetailsURL(),
		ExternalID: run.GetExternalID()}
	raw, err := review.ReadBackRaw(run)
	switch {
	case err == nil:
		cr.Response = raw
	case !errors.Is(err, review.ErrNotEmbedded):
		cr.ResponseErr = err.Error()
	}
	if cr.Binding, err = carry.ReadBinding(run.GetOutput().GetText()); err != nil {
		cr.BindingErr = err.Error()
	}
	return cr
}

// Create posts a completed check run with the carried response embedded
// in output.text, after the binding record when it fits, as a gate's
// check run has them (review.CheckText).
func (r Runs) Create(ctx context.Context, n carry.NewCheckRun) error {
	var record string
	if n.Binding != nil {
		record = carry.EmbedBinding(*n.Binding)
	}
	out := &github.CheckRunOutput{Title: github.String(n.Title), Summary: github.String(review.CutRunes(n.Summary, review.MaxCheckText)),
		Text: github.String(review.CheckText(review.EmbedResponse(n.Response), record))}
	opt := github.CreateCheckRunOptions{Name: n.Name, HeadSHA: n.HeadSHA, Status: github.String("completed"),
		Conclusion: github.String(n.Conclusion), Output: out}
	if n.DetailsURL != "" {
		opt.DetailsURL = github.String(n.DetailsURL)
	}
	_, err := r.CreateCheckRun(ctx, opt)
	return err
}

// CommitPullRequests lists the pull requests commit sha belongs to or was
// merged by; MergeCommitSHA only for a merged one.
func (r Runs) CommitPullRequests(ctx context.Context, sha string) ([]carry.PullRequest, error) {
	prs, err := r.runPorts.CommitPullRequests(ctx, sha)
	if err != nil {
		return nil, err
	}
	out := make([]carry.PullRequest, len(prs))
	for i, pr := range prs {
		out[i] = carry.PullRequest{Number: pr.GetNumber(), Base: pr.GetBase().GetRef()}
		if pr.MergedAt != nil {
			out[i].MergeCommitSHA = pr.GetMergeCommitSHA()
		}
	}
	return out, nil
}

// Conclusion is the conclusion CheckRun gives a run of verdict.
func (Runs) Conclusion(verdict string) string { return review.Conclusion(verdict) }
