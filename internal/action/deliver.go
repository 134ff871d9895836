package action

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/carry"
	"github.com/agcgate/agc-action/deliver"
	"github.com/agcgate/agc-action/fingerprint"
	"github.com/agcgate/agc-action/ghapi"
	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/internal/collect"
	"github.com/agcgate/agc-action/internal/ghrun"
	"github.com/agcgate/agc-action/internal/logsafe"
	"github.com/agcgate/agc-action/review"
)

// channels are the GitHub channels this run writes to.
type channels struct{ check, review, status, upload bool }

// channels resolves the switches with the event's defaults: a check run
// per gate whenever there is a commit, a review on pull requests; statuses
// and code scanning uploads when asked.
func (r *actionRun) channels() channels {
	hasCommit := r.rc.HeadSHA != ""
	return channels{
		check:  r.cfg.check.on(hasCommit),
		review: r.cfg.review.on(r.rc.PR > 0) && r.rc.PR > 0,
		status: r.cfg.status.on(false),
		upload: r.cfg.uploadSARIF.on(false),
	}
}

// client returns the GitHub client, or nil with a reason when this run
// cannot write (no token, no repository, no commit).
func (r *actionRun) client() (*ghapi.Client, string, error) {
	owner, repo, err := ghrun.SplitRepo("--repo", r.rc.Repository)
	switch {
	case err != nil:
		return nil, "GITHUB_REPOSITORY is not set", nil
	case r.rc.HeadSHA == "":
		return nil, "no commit to report on (GITHUB_SHA or the event's head)", nil
	case r.cfg.token == "" && !r.dryRun():
		return nil, "no token (input \"token\")", nil
	}
	c, err := r.newClient(owner, repo, ghapi.RetryPolicy{TotalWait: r.cfg.retryBudget, Sleep: r.e.Sleep})
	return c, "", err
}

// newClient is the client of owner/repo; a dry run's prints the requests
// that write instead of sending them.
func (r *actionRun) newClient(owner, repo string, retry ghapi.RetryPolicy) (*ghapi.Client, error) {
	var dry io.Writer
	if r.dryRun() {
		dry = r.e.Stdout
	}
	return ghapi.NewFromEnv(r.e.Getenv, ghapi.Config{Owner: owner, Repo: repo, Token: r.cfg.token, Login: r.cfg.login, Retry: retry}, dry)
}

// dryRun: print the requests that write instead of sending them.
func (r *actionRun) dryRun() bool { return r.cfg.dryRun || r.cfg.preview }

// deliver posts to GitHub what the channels ask for. It reports degraded
// when the token cannot write, or there is no client (why says why); then
// every finding goes to workflow annotations (and the job summary)
// instead, so nothing is lost.
func (r *actionRun) deliver(ctx context.Context, gh *ghapi.Client, why string, gates []agc.Doc, bindings map[string]carry.Binding, notes map[string]string, head review.FileReader, diffs deliver.Diffs) (degraded bool, err error) {
	ch := r.channels()
	if len(gates) == 0 && !ch.upload {
		return false, nil // a carry step: the carried runs are posted already
	}
	var port deliver.GitHub
	if gh != nil {
		port = gh
	} else {
		r.warn("not posting to GitHub: " + why + "; reporting in the job summary and as annotations")
		head = nil
	}
	if len(gates) > 0 || gh == nil {
		rep, err := deliver.Deliver(ctx, port, gates, deliver.Options{PR: r.rc.PR, HeadSHA: r.rc.HeadSHA,
			Review: ch.review, Check: ch.check, Status: ch.status,
			Plan:       review.PlanOptions{Mode: r.cfg.filterMode, Head: head, Links: r.links()},
			DetailsURL: ghrun.RunURL(r.e.Getenv, r.rc.Repository), Bindings: bindings, Notes: notes, Annotations: r.e.Stdout,
			Diffs: diffs, Log: r.e.Stdout, AppID: r.cfg.appID, ValidatorJob: r.validatorJob(),
			SARIF: review.SARIFPlace{Path: r.out.sarifFile, Uploaded: ch.upload}})
		if len(rep.NotDelivered) > 0 {
			workflowCommand(r.e.Stdout, "error", "not delivered to GitHub: "+strings.Join(rep.NotDelivered, "; ")+
				" (every finding is in the job summary and the SARIF file; a rerun posts the rest without repeating what was posted)")
		}
		if err != nil || gh == nil {
			return gh == nil, err
		}
		degraded = rep.Degraded
		r.reportCeiling(gates, rep)
	}
	if ch.upload && !degraded {
		// Last, and on its own: code scanning failing (no security-events
		// permission, Advanced Security off) must not keep the check runs
		// and the review from being posted.
		if err := r.upload(ctx, gh); err != nil {
			if !ghapi.IsReadOnly(err) {
				return false, fmt.Errorf("code scanning upload: %w", err)
			}
			r.warn("code scanning upload refused: the token lacks security-events: write; every finding is in the SARIF file (output sarif-file), and each check run lists those its review does not show or says where they are")
		}
	}
	if r.rc.PR == 0 && !degraded {
		// No pull request to comment on: findings show as annotations.
		for _, g := range gates {
			if err := review.WriteAnnotations(r.e.Stdout, g.Response, head); err != nil {
				return degraded, err
			}
		}
	}
	return degraded, nil
}

// validatorJob names this job to the other jobs that post agc/agc-validate
// on the same commit (carry.ValidatorJob): the workflow, the job, and the
// lines of agc, sarif and diff it read.
func (r *actionRun) validatorJob() string {
	var lines []string
	for _, in := range []struct {
		name string
		ps   []collect.Pattern
	}{{"agc", r.cfg.agc}, {"sarif", r.cfg.sarif}, {"diff", r.cfg.diff}} {
		for _, p := range in.ps {
			lines = append(lines, in.name+": "+p.Gate+"="+p.Glob)
		}
	}
	workflow := cmp.Or(r.e.Getenv("GITHUB_WORKFLOW_REF"), r.e.Getenv("GITHUB_WORKFLOW"))
	return carry.ValidatorJob(workflow, r.e.Getenv("GITHUB_JOB"), lines)
}

// reportCeiling says, per gate, what the write ceiling kept off the pull
// request and where it is (docs/github.md, "The ceiling"): a dry run or a
// preview prints the requests up to the ceiling, and this counts the rest.
func (r *actionRun) reportCeiling(gates []agc.Doc, rep *deliver.Report) {
	for _, g := range gates {
		res := rep.Reviews[g.Response.Gate.ID]
		if res == nil {
			continue
		}
		deferred := res.DeferredEdits + res.DeferredThreads
		if res.Unlisted == 0 && res.Capped == 0 && deferred == 0 && !res.NoReview {
			continue
		}
		msg := fmt.Sprintf("%s: %d findings inline, %d listed in the review body, %d not in the review (its check run lists them, or says where those it has no room for are)",
			review.CheckName(g.Response.Gate.ID), res.Inline, res.Listed, res.Unlisted)
		if res.NoReview {
			msg += "; no review this run (the run's reviews are spent)"
		}
		if deferred > 0 {
			msg += fmt.Sprintf("; %d edits or thread changes left to a later run", deferred)
		}
		workflowCommand(r.e.Stdout, "notice", msg+" (the write ceiling, docs/github.md)")
	}
}

// upload sends the SARIF file: the answers given as SARIF are in it too,
// converted and back, so one upload per run carries every gate.
func (r *actionRun) upload(ctx context.Context, gh *ghapi.Client) error {
	data, err := os.ReadFile(r.out.sarifFile)
	if err != nil {
		return err
	}
	res, err := gh.UploadSARIF(ctx, ghapi.UploadInput{SARIF: data, CommitSHA: r.rc.HeadSHA, PR: r.rc.PR, Ref: r.rc.Ref,
		CheckoutURI: "file://" + r.root, ToolName: "agc-action"})
	if err != nil {
		return err
	}
	fmt.Fprintf(r.e.Stdout, "code scanning upload %s: %s\n", logsafe.Line(res.ID), logsafe.Line(res.Status))
	return nil
}

// headFiles reads the files of the commit reported on, which suggestions,
// comment lines and annotations are computed against: the checkout when
// it is that commit, else the commit's own objects when the clone has
// them or they can be fetched from origin by its id (the default
// pull_request checkout is the merge with the base, whose lines differ
// from the head's wherever the base changed; a workflow_run or
// check_suite checkout is the default branch). They are read as data,
// never run. When they cannot be had, no suggestion is made, each finding
// keeps the lines its location names (review.UnknownHead), and the log
// says how to fetch the commit.
func (r *actionRun) headFiles(ctx context.Context, g *fingerprint.Git) review.FileReader {
	checkout := cmdenv.Files{FS: cmdenv.MustSourceFS(r.root)}
	if g == nil || r.rc.HeadSHA == "" {
		return checkout
	}
	if head, err := g.Commit(ctx, "HEAD"); err != nil || head == r.rc.HeadSHA {
		return checkout
	}
	why := carry.Reachable(g, "origin")(ctx, r.rc.HeadSHA)
	if why == nil {
		return gitFiles{ctx: ctx, g: g, rev: r.rc.HeadSHA}
	}
	expr := r.rc.CheckoutExpr()
	r.warn("the checkout is not the commit reported on (" + carry.Short(r.rc.HeadSHA) + "), whose files suggestions are computed from, and " +
		why.Error() + "; no suggestion is made, and annotations take the lines the findings name. " +
		"Fetch it (git fetch --depth=1 origin " + expr + ") or check it out (actions/checkout with ref: " + expr + ")")
	return review.UnknownHead{}
}

// gitFiles reads files of one commit from the clone's objects.
type gitFiles struct {
	ctx context.Context
	g   *fingerprint.Git
	rev string
}

func (f gitFiles) ReadFile(path string) ([]byte, error) { return f.g.File(f.ctx, f.rev, path) }

// links makes links to lines of files at the commit reported on, from
// GITHUB_SERVER_URL and the run context; none when any is unknown.
func (r *actionRun) links() review.Links {
	return review.Links{Server: r.e.Getenv("GITHUB_SERVER_URL"), Repo: r.rc.Repository, SHA: r.rc.HeadSHA}
}
