package action

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/carry"
	"github.com/agcgate/agc-action/decide"
	"github.com/agcgate/agc-action/deliver"
	"github.com/agcgate/agc-action/ghapi"
	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/internal/ghrun"
	"github.com/agcgate/agc-action/internal/logsafe"
	"github.com/agcgate/agc-action/validate"
	"github.com/google/go-github/v62/github"
)

// A person decides (docs/rounds.md, "A person decides"): on an
// issue_comment event, which GitHub runs from the default branch with a
// write token, a comment "/agc decide GATE OPTION: REASON" on a pull
// request by a person with write access becomes the gate's check run on
// the pull request's head, with the decision in its binding record. The
// pull request's code is never checked out or run: its head is fetched by
// id into the default branch's clone and its tree read as data, to bind
// the decision to the head's scoped fingerprint. A comment that is not
// taken as a decision gets one reply saying why.

// readCommentEvent reads the issue_comment payload at path.
func readCommentEvent(path string) (*github.IssueCommentEvent, error) {
	if path == "" {
		return nil, errors.New("an issue_comment run needs its event (GITHUB_EVENT_PATH)")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read the event payload: %w", err)
	}
	var ev github.IssueCommentEvent
	if err := json.Unmarshal(data, &ev); err != nil {
		return nil, fmt.Errorf("event payload %s: %w", path, err)
	}
	return &ev, nil
}

// eventComment is the comment of ev as a decision reads it.
func eventComment(ev *github.IssueCommentEvent) decide.Comment {
	c, u := ev.GetComment(), ev.GetComment().GetUser()
	return decide.Comment{ID: c.GetID(), Action: ev.GetAction(), Login: u.GetLogin(), UserID: u.GetID(), UserType: u.GetType(),
		Created: c.GetCreatedAt().Time, Updated: c.GetUpdatedAt().Time, Body: c.GetBody()}
}

// decideOnComment handles an issue_comment event: a decision is recorded,
// or the comment is ignored with one reply, or it holds no decision and
// nothing is done. Exit 0 unless GitHub or git failed, or an input is
// wrong.
func (r *actionRun) decideOnComment(ctx context.Context) int {
	ev, err := readCommentEvent(r.e.Getenv("GITHUB_EVENT_PATH"))
	if err != nil {
		workflowCommand(r.e.Stdout, "error", err.Error())
		return cmdenv.ExitUsage
	}
	id := ev.GetComment().GetID()
	d, found, perr := decide.Parse(ev.GetComment().GetBody())
	switch {
	case ev.GetIssue().GetPullRequestLinks() == nil:
		fmt.Fprintln(r.e.Stdout, "a comment on an issue, not a pull request: nothing to decide")
		return cmdenv.ExitOK
	case !found:
		fmt.Fprintf(r.e.Stdout, "comment %d holds no decision (a line %q)\n", id, decide.Usage)
		return cmdenv.ExitOK
	case ev.GetAction() == "deleted":
		fmt.Fprintf(r.e.Stdout, "comment %d was deleted: nothing to decide\n", id)
		return cmdenv.ExitOK
	}
	gh, err := r.decideClient()
	if err != nil {
		workflowCommand(r.e.Stdout, "error", err.Error())
		return cmdenv.ExitUsage
	}
	pr := ev.GetIssue().GetNumber()
	var ignored *decide.Ignored
	if perr != nil {
		ignored = &decide.Ignored{Why: perr.Error()}
	} else if ignored, err = r.takeDecision(ctx, gh, ev, d); err != nil {
		workflowCommand(r.e.Stdout, "error", "deciding on comment "+fmt.Sprint(id)+": "+err.Error())
		return cmdenv.ExitUsage
	}
	if ignored == nil {
		return cmdenv.ExitOK
	}
	fmt.Fprintf(r.e.Stdout, "comment %d is not taken as a decision: %s\n", id, logsafe.Line(ignored.Why))
	// Once: a rerun finds the reply by its marker and says nothing more.
	switch replied, err := repliedTo(ctx, gh, pr, id); {
	case err != nil:
		workflowCommand(r.e.Stdout, "error", err.Error())
		return cmdenv.ExitUsage
	case replied:
		fmt.Fprintf(r.e.Stdout, "comment %d: replied already\n", id)
		return cmdenv.ExitOK
	}
	if err := gh.Reply(ctx, pr, decide.Reply(id, ignored.Why)); err != nil {
		workflowCommand(r.e.Stdout, "error", err.Error())
		return cmdenv.ExitUsage
	}
	return cmdenv.ExitOK
}

// decideClient is the client a decision posts with; the head it posts on
// is the pull request's, read from GitHub.
func (r *actionRun) decideClient() (*ghapi.Client, error) {
	owner, repo, err := ghrun.SplitRepo("GITHUB_REPOSITORY", r.rc.Repository)
	switch {
	case err != nil:
		return nil, err
	case r.cfg.token == "" && !r.dryRun():
		return nil, &inputError{"token", "deciding needs a token that can read permissions and write check runs and comments"}
	case len(r.cfg.gates) == 0:
		return nil, &inputError{"gate", "name the gates a person may decide, one per line"}
	}
	return r.newClient(owner, repo, ghapi.RetryPolicy{})
}

// takeDecision checks the comment, its author and the round decided on,
// binds the decision to the head's scoped fingerprint and posts it. It
// returns why the comment is not taken as a decision (nil when it was, or
// when it had been already), or an error when GitHub or git failed.
func (r *actionRun) takeDecision(ctx context.Context, gh *ghapi.Client, ev *github.IssueCommentEvent, d decide.Decision) (*decide.Ignored, error) {
	c := eventComment(ev)
	if why := decide.CheckComment(c); why != nil {
		return why, nil
	}
	perm, role, err := gh.Permission(ctx, c.Login)
	if err != nil {
		return nil, err
	}
	if why := decide.CheckPermission(c.Login, perm, role); why != nil {
		return why, nil
	}
	if d.Gate == validate.GateID || !slices.Contains(r.cfg.gates, d.Gate) {
		return &decide.Ignored{Why: fmt.Sprintf("gate %s is not one this workflow lets a person decide (its input gate names %s)", d.Gate, strings.Join(r.cfg.gates, ", "))}, nil
	}
	// The head as GitHub names it: the payload does not name it, and the
	// list of the pull request's commits stops at 250.
	info, err := gh.Pull(ctx, ev.GetIssue().GetNumber())
	switch {
	case err != nil:
		return nil, err
	case info.HeadSHA == "":
		return &decide.Ignored{Why: fmt.Sprintf("GitHub names no head of pull request %d", ev.GetIssue().GetNumber())}, nil
	}
	head := info.HeadSHA
	run, resp, why, err := r.decidedRun(ctx, gh, c, d.Gate, head)
	if why != nil || err != nil || run == nil {
		return why, err
	}
	option, why := decide.Choose(d.Option, resp)
	if why != nil {
		return why, nil
	}
	nb, why, err := r.bindDecision(ctx, ev, run, head)
	if why != nil || err != nil {
		return why, err
	}
	rec := decide.Record{By: c.Login, ByID: c.UserID, Permission: perm, RoleName: role, Option: option, Conclusion: decide.Conclusion(option),
		Reason: d.Reason, Comment: c.ID, CommentedAt: c.Created.UTC().Format(time.RFC3339), Decided: run.ID}
	nb.Decision = &rec
	err = deliver.CarryRuns(gh).Create(ctx, carry.NewCheckRun{Name: carry.CheckName(d.Gate), HeadSHA: head, Conclusion: rec.Conclusion,
		Title: decide.Title(rec), Summary: decide.Summary(rec, d.Gate, head, nb.Fingerprint, githubURL(ev.GetComment().GetHTMLURL()), githubURL(run.HTMLURL)),
		DetailsURL: ghrun.RunURL(r.e.Getenv, r.rc.Repository), Response: run.Response, Binding: nb})
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(r.e.Stdout, "decision recorded on %s: %s chose %s for gate %s (%s), bound to %s\n", carry.Short(head), c.Login,
		logsafe.Quote(option), d.Gate, rec.Conclusion, nb.Fingerprint)
	return nil, nil
}

// decidedRun is the round decided on: the gate's latest completed run on
// the head by the trusted app, which must have completed before the
// comment was made (a person decides on what they saw; a push or a new
// round after the comment is not decided on). It returns nil and no
// reason when that run already records this comment's decision (a rerun).
func (r *actionRun) decidedRun(ctx context.Context, gh *ghapi.Client, c decide.Comment, gate, head string) (*carry.CheckRun, *agc.Response, *decide.Ignored, error) {
	name := carry.CheckName(gate)
	runs, err := deliver.CarryRuns(gh).List(ctx, head, name)
	if err != nil {
		return nil, nil, nil, err
	}
	app := cmp.Or(r.cfg.appID, carry.ActionsAppID)
	run := carry.LatestTrusted(runs, name, head, app)
	ignore := func(format string, a ...any) (*carry.CheckRun, *agc.Response, *decide.Ignored, error) {
		return nil, nil, &decide.Ignored{Why: fmt.Sprintf(format, a...)}, nil
	}
	if run == nil {
		return ignore("there is no completed %s check run by app %d on the head %s to decide on", name, app, carry.Short(head))
	}
	b := run.Binding
	if b != nil && b.Decision != nil && b.Decision.Comment == c.ID {
		fmt.Fprintf(r.e.Stdout, "comment %d: its decision is recorded already, in check run %d\n", c.ID, run.ID)
		return nil, nil, nil, nil
	}
	switch {
	case run.Completed.After(c.Created):
		return ignore("the %s check run on the head %s (%d) completed at %s, after the comment was made (%s): the head or its round changed since; decide again on what is there now",
			name, carry.Short(head), run.ID, run.Completed.UTC().Format(time.RFC3339), c.Created.UTC().Format(time.RFC3339))
	case b == nil:
		return ignore("check run %d holds no binding record: its answer is not bound to a scoped fingerprint, so a decision on it could be neither carried nor voided", run.ID)
	case b.Gate != gate || (b.CarriedTo == "" && b.SHA != head) || (b.CarriedTo != "" && b.CarriedTo != head):
		return ignore("check run %d holds the binding of another gate or commit", run.ID)
	case run.Response == nil:
		return ignore("check run %d carries no AGC response", run.ID)
	}
	resp, err := agc.Decode(fmt.Sprintf("check run %d", run.ID), run.Response, agc.Limits{})
	if err != nil {
		return ignore("check run %d: the embedded response does not decode", run.ID)
	}
	return run, resp, nil, nil
}

// bindDecision fingerprints the head's tree, fetched by id into the
// default branch's clone and read as data, over the workflow's scope
// (read from the default branch); it must be the fingerprint the run
// decided on is bound to, so the decision holds and is voided exactly as
// that run's verdict would be.
func (r *actionRun) bindDecision(ctx context.Context, ev *github.IssueCommentEvent, run *carry.CheckRun, head string) (*carry.Binding, *decide.Ignored, error) {
	g := r.repo(ctx)
	if g == nil {
		return nil, nil, errors.New("deciding needs the default branch checked out in the workspace (actions/checkout, never the pull request's head): the head is fetched into it as data")
	}
	defer g.Close()
	if !g.HasCommit(ctx, head) {
		if err := g.FetchCommit(ctx, "origin", head); err != nil {
			return nil, nil, err
		}
	}
	if r.rc.BaseRef == "" {
		r.rc.BaseRef = ev.GetRepo().GetDefaultBranch() // the scope-file is read there
	}
	w, err := r.workflow(ctx, g)
	switch {
	case err != nil:
		return nil, nil, err
	case !w.Defined():
		return nil, nil, &inputError{"scope", "deciding needs the scope the gates are bound with (scope or scope-file): " + carry.ErrNoScope.Error()}
	}
	b := run.Binding
	nb, err := carry.Bind(ctx, carry.RepoFingerprinter(g), w, agc.Gate{ID: b.Gate, Version: b.GateVersion}, head, head)
	if err != nil {
		return nil, &decide.Ignored{Why: "the head cannot be bound to a scoped fingerprint: " + err.Error()}, nil
	}
	if nb.Fingerprint != b.Fingerprint {
		return nil, &decide.Ignored{Why: fmt.Sprintf("at the head %s the scope this workflow defines (%s) gives %s, but check run %d is bound to %s: "+
			"the workflow that decides must bind with the scope and gate-config the gate's workflow binds with", carry.Short(head), w.ScopeFrom, nb.Fingerprint, run.ID, b.Fingerprint)}, nil
	}
	return &nb, nil, nil
}

// githubURL returns u when it is a plain https URL to link to, else "".
func githubURL(u string) string {
	if !strings.HasPrefix(u, "https://") || strings.ContainsAny(u, " ()<>[]\"'`\n\r\t") {
		return ""
	}
	return u
}

// decidedDoc is what a carried run stands for in this run's outputs, job
// summary and exit code: the gate's answer, with the verdict of the
// person's decision when the run carried one (accept: allow; any other
// option: block). The carried run itself holds the answer as the gate
// wrote it.
func decidedDoc(res *carry.Result, d agc.Doc) agc.Doc {
	if res.From == nil || res.From.Binding == nil || res.From.Binding.Decision == nil {
		return d
	}
	out := *d.Response
	out.Verdict = agc.Block
	if res.From.Binding.Decision.Conclusion == "success" {
		out.Verdict = agc.Allow
	}
	raw, _ := agc.Encode(&out)
	return agc.Doc{Response: &out, Raw: raw}
}

// repliedTo reports whether the pull request's conversation holds a reply
// by the client's login to comment (decide.RepliedTo), so a rerun does not
// reply twice.
func repliedTo(ctx context.Context, gh *ghapi.Client, pr int, comment int64) (bool, error) {
	cms, err := gh.IssueComments(ctx, pr)
	if err != nil {
		return false, err
	}
	for _, cm := range cms {
		if id, ok := decide.RepliedTo(cm.GetBody()); ok && id == comment && cm.GetUser().GetLogin() == gh.Login() {
			return true, nil
		}
	}
	return false, nil
}
