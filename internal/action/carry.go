package action

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/carry"
	"github.com/agcgate/agc-action/deliver"
	"github.com/agcgate/agc-action/fingerprint"
	"github.com/agcgate/agc-action/ghapi"
	"github.com/agcgate/agc-action/internal/logsafe"
)

// repo opens the workspace as a git repository, or nil when it is none.
func (r *actionRun) repo(ctx context.Context) *fingerprint.Git {
	if _, err := os.Stat(filepath.Join(r.root, ".git")); err != nil {
		return nil
	}
	g := &fingerprint.Git{Dir: r.root}
	if _, err := g.Commit(ctx, "HEAD"); err != nil {
		return nil
	}
	return g
}

// workflow resolves the scope the workflow defines: the scope-file read
// from the base branch, else the scope input; with neither, a Workflow
// that is not Defined, and nothing is bound or carried (an answer's own
// scope is never used: it would let the answer choose what it is judged
// on).
func (r *actionRun) workflow(ctx context.Context, g *fingerprint.Git) (carry.Workflow, error) {
	src := carry.ScopeSource{File: r.cfg.scopeFile, Patterns: r.cfg.scope}
	if r.cfg.scopeFile != "" {
		if r.rc.BaseRef == "" {
			return carry.Workflow{}, &inputError{"scope-file", "no base branch to read it from (a pull_request or merge_group event)"}
		}
		src.Base = "origin/" + r.rc.BaseRef // the base branch as the checkout knows it
	}
	w, err := carry.ReadWorkflow(ctx, g, src, r.cfg.gateConfig)
	if err != nil && r.cfg.scopeFile != "" {
		return w, fmt.Errorf("%w (fetch the base branch: git fetch --depth=1 origin %s)", err, r.rc.BaseRef)
	}
	return w, err
}

// binding is what this run bound answers to.
type binding struct {
	rev     string         // the revision fingerprinted; "" when nothing can be bound (the log said why)
	w       carry.Workflow // the scope and gate configuration the workflow defines
	records map[string]carry.Binding
}

// bindAnswers binds each answer about repository content to the scoped
// fingerprint of the commit reported on, over the workflow's scope
// (docs/action.md, 3). The records go into the check runs beside the
// answers, which are posted as the gates wrote them: only a bound answer
// is ever carried. An answer that cannot be bound is posted without a
// record and named in the log; the others are still bound.
func (r *actionRun) bindAnswers(ctx context.Context, g *fingerprint.Git, gates []agc.Doc) binding {
	// The revision whose tree stands for the commit reported on: anything
	// else is not what the gates judged, and nothing is bound or carried.
	rev, err := carry.JudgedRev(ctx, g, r.rc.HeadSHA)
	if err != nil {
		r.warn("answers are not bound to scoped fingerprints and nothing is carried: " + err.Error())
		return binding{}
	}
	w, err := r.workflow(ctx, g)
	if err != nil {
		r.warn("answers are not bound to scoped fingerprints and nothing is carried: " + err.Error())
		return binding{}
	}
	b := binding{rev: rev, w: w}
	if !w.Defined() {
		if slices.ContainsFunc(gates, func(d agc.Doc) bool { return carry.TreeSubject(d.Response.Subject.Kind) }) {
			fmt.Fprintf(r.e.Stdout, "answers are not bound to scoped fingerprints, so none can be carried: %v\n", carry.ErrNoScope)
		}
		return b
	}
	// Only a paired gate is ever carried (docs/action.md): an answer from
	// a line that pairs its files with no gate is not bound, and collect
	// warned about that line.
	paired := slices.DeleteFunc(slices.Clone(gates), func(d agc.Doc) bool { return !r.cfg.pairedGate(d.Response.Gate.ID) })
	var errs []error
	b.records, errs = carry.BindAll(ctx, carry.RepoFingerprinter(g), w, r.rc.HeadSHA, rev, paired)
	for _, err := range errs {
		r.warn("not bound to a scoped fingerprint, so it can never be carried: " + err.Error())
	}
	return b
}

// carried is a gate whose earlier verdict now stands for this head.
type carriedGate struct {
	gate   agc.Doc
	from   string // the commit the verdict was judged on
	reason string
}

// carry tries to carry each of ids from the previous head, fingerprinting
// b.rev over the workflow's scope; the results go to the log, the summary
// and the outputs. The commit a previous run judged is recomputed when the
// clone has it or it can be fetched from origin by its id; otherwise the
// binding record of that (trusted) run stands for it.
func (r *actionRun) carry(ctx context.Context, gh *ghapi.Client, g *fingerprint.Git, b binding, ids []string) ([]carriedGate, []string) {
	var out []carriedGate
	var notCarried []string
	before, pr := r.carryFrom(ctx, gh)
	for _, id := range ids {
		res, err := carry.Gate(ctx, deliver.CarryRuns(gh), carry.Options{Gate: id, AppID: r.cfg.appID, HeadSHA: r.rc.HeadSHA, Rev: b.rev,
			Before: before, PR: pr, Workflow: b.w, Compute: carry.RepoFingerprinter(g), Have: carry.Reachable(g, "origin")})
		if err != nil {
			fmt.Fprintf(r.e.Stdout, "carry %s: not carried: %s\n", logsafe.Name(id), logsafe.Line(err.Error()))
			notCarried = append(notCarried, id)
			continue
		}
		for _, c := range res.Changes {
			fmt.Fprintf(r.e.Stdout, "%s: %s\n", logsafe.Name(id), logsafe.Line(c)) // c names paths of the head's tree
		}
		fmt.Fprintf(r.e.Stdout, "carry %s: %s\n", logsafe.Name(id), logsafe.Line(res.Reason))
		if !res.Carried {
			notCarried = append(notCarried, id)
			continue
		}
		raw, _ := agc.Encode(res.Response)
		out = append(out, carriedGate{gate: decidedDoc(res, agc.Doc{Response: res.Response, Raw: raw}), from: res.JudgedSHA, reason: res.Reason})
	}
	return out, notCarried
}

// carryFrom says where earlier verdicts are looked for (issue 12, item
// 6): on merge_group, the heads of the pull request the group was made
// for; on a push that merged a pull request into the pushed branch, that
// pull request's heads; otherwise the event's before, then the pull
// request's commits. The fingerprint is compared with the new head's
// either way, so the base's own new commits, and a group's earlier
// members, void a verdict only where they touch its scope.
func (r *actionRun) carryFrom(ctx context.Context, gh *ghapi.Client) (before string, pr int) {
	switch {
	case r.rc.QueuedPR > 0:
		fmt.Fprintf(r.e.Stdout, "carry: merge group %s of pull request #%d: carrying from its heads\n", carry.Short(r.rc.HeadSHA), r.rc.QueuedPR)
		return "", r.rc.QueuedPR
	case r.rc.Event == "push" && r.rc.Branch != "" && r.rc.PR == 0:
		n, err := carry.MergedPR(ctx, deliver.CarryRuns(gh), r.rc.HeadSHA, r.rc.Branch)
		switch {
		case err != nil:
			r.warn("carry: not looking for the pull request this push merged: " + err.Error())
		case n > 0:
			fmt.Fprintf(r.e.Stdout, "carry: %s merged pull request #%d into %s: carrying from its heads\n", carry.Short(r.rc.HeadSHA), n, logsafe.Name(r.rc.Branch))
			return "", n
		}
	}
	return r.rc.BeforeSHA, r.rc.PR
}

// carryOn says whether this run carries: asked for, or by default when
// gates to carry are named and GitHub asks again about content a gate
// judged: a pull request's new head, a merge group, a push to the default
// branch.
func (r *actionRun) carryOn() (bool, error) {
	again := r.rc.PR > 0 && r.rc.BeforeSHA != "" || r.rc.QueuedPR > 0 || r.rc.Event == "push" && r.rc.BaseRef != ""
	auto := again && len(r.cfg.gates) > 0
	on := r.cfg.carry.on(auto)
	if on && len(r.cfg.gates) == 0 {
		return false, &inputError{"gate", "carry needs the ids of the gates to carry, one per line"}
	}
	return on, nil
}

var errNoRepo = errors.New("carry needs the repository checked out in the workspace (actions/checkout)")
