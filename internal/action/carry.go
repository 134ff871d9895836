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
	"github.com/agcgate/agc-action/fingerprint"
	"github.com/agcgate/agc-action/ghapi"
	"github.com/agcgate/agc-action/validate"
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

// fingerprinter computes a gate's scoped fingerprint at a revision: over
// the scope file read from the base branch, else the scope input, else the
// answer's own scope, bound to the gate's id, version and config files.
func (r *actionRun) fingerprinter(g *fingerprint.Git) carry.Fingerprinter {
	return func(ctx context.Context, rev string, prev *agc.Response) (*fingerprint.Result, error) {
		scope, err := r.scopeFor(ctx, g, prev)
		if err != nil {
			return nil, err
		}
		return fingerprint.Compute(ctx, g, fingerprint.Options{Rev: rev, Scope: scope,
			GateID: prev.Gate.ID, GateVersion: prev.Gate.Version, GateConfigs: r.cfg.gateConfig})
	}
}

func (r *actionRun) scopeFor(ctx context.Context, g *fingerprint.Git, prev *agc.Response) (fingerprint.Scope, error) {
	switch {
	case r.cfg.scopeFile != "":
		base := r.baseRev()
		if base == "" {
			return fingerprint.Scope{}, &inputError{"scope-file", "no base branch to read it from (a pull_request or merge_group event)"}
		}
		s, err := fingerprint.ReadScopeFile(ctx, g, base, r.cfg.scopeFile)
		if err != nil {
			return s, fmt.Errorf("scope file %s at %s (fetch the base branch: git fetch --depth=1 origin %s): %w", r.cfg.scopeFile, base, r.rc.BaseRef, err)
		}
		return s, nil
	case len(r.cfg.scope) > 0:
		return fingerprint.ParseScope(r.cfg.scope)
	}
	return fingerprint.ParseScope(prev.Subject.Scope)
}

// baseRev is the base branch as the checkout knows it.
func (r *actionRun) baseRev() string {
	if r.rc.BaseRef == "" {
		return ""
	}
	return "origin/" + r.rc.BaseRef
}

// fingerprintRev is the revision whose tree stands for the commit this
// run reports on: the checkout when it is that commit, or its merge with
// the base (a pull_request checkout, whose parent is the head); else the
// commit itself when the clone has it. Anything else, such as the default
// branch checked out by a workflow_run or pull_request_target workflow,
// is not what the gates judged, and nothing is bound or carried.
func (r *actionRun) fingerprintRev(ctx context.Context, g *fingerprint.Git) (string, error) {
	want := r.rc.HeadSHA
	head, err := g.Commit(ctx, "HEAD")
	if err != nil {
		return "", err
	}
	if want == "" || head == want {
		return "HEAD", nil
	}
	if parents, err := g.Parents(ctx, "HEAD"); err == nil && slices.Contains(parents, want) {
		return "HEAD", nil
	}
	if c, err := g.Commit(ctx, want); err == nil && c == want {
		return want, nil
	}
	return "", fmt.Errorf("the checkout (%s) is neither the commit reported on (%s) nor its merge, and the clone does not hold that commit", carry.Short(head), carry.Short(want))
}

// bind gives each answer about repository content the scoped fingerprint
// of rev, so that a later push can carry its verdict (docs/action.md, 3).
// The gate's own subject is kept in agc-action/gate-subject, which also
// marks the answer as bound: only bound answers are ever carried. An
// answer that cannot be bound is posted as the gate wrote it and says why
// in the log; the others are still bound.
func (r *actionRun) bind(ctx context.Context, g *fingerprint.Git, rev string, gates []agc.Doc) []error {
	compute := r.fingerprinter(g)
	var errs []error
	for i := range gates {
		resp := gates[i].Response
		if resp.Gate.ID == validate.GateID || !carry.TreeSubject(resp.Subject.Kind) {
			continue
		}
		if err := bindOne(ctx, compute, rev, &gates[i]); err != nil {
			errs = append(errs, fmt.Errorf("gate %s: %w", resp.Gate.ID, err))
		}
	}
	return errs
}

func bindOne(ctx context.Context, compute carry.Fingerprinter, rev string, g *agc.Doc) error {
	resp := g.Response
	res, err := compute(ctx, rev, resp)
	if err != nil {
		return err
	}
	if err := carry.Bind(resp, res); err != nil {
		return err
	}
	g.Raw, err = agc.Encode(resp)
	return err
}

// carried is a gate whose earlier verdict now stands for this head.
type carriedGate struct {
	gate   agc.Doc
	from   string // the commit the verdict was judged on
	reason string
}

// carry tries to carry each of ids from the previous head, fingerprinting
// rev; the results go to the log, the summary and the outputs.
func (r *actionRun) carry(ctx context.Context, gh *ghapi.Client, g *fingerprint.Git, rev string, ids []string) ([]carriedGate, []string, error) {
	var out []carriedGate
	var notCarried []string
	compute := r.fingerprinter(g)
	onlyBound := func(ctx context.Context, at string, prev *agc.Response) (*fingerprint.Result, error) {
		if !carry.Bound(prev) {
			return nil, errors.New("its answer was not bound to a scoped fingerprint by agc-action, so nothing says what it judged")
		}
		return compute(ctx, at, prev)
	}
	for _, id := range ids {
		res, err := carry.Gate(ctx, gh.CarryRuns(), carry.Options{Gate: id, AppID: r.cfg.appID, HeadSHA: r.rc.HeadSHA, Rev: rev,
			Before: r.rc.BeforeSHA, PR: r.rc.PR, Compute: onlyBound})
		if err != nil {
			fmt.Fprintf(r.e.Stdout, "carry %s: not carried: %v\n", id, err)
			notCarried = append(notCarried, id)
			continue
		}
		for _, c := range res.Changes {
			fmt.Fprintf(r.e.Stdout, "%s: %s\n", id, c)
		}
		fmt.Fprintf(r.e.Stdout, "carry %s: %s\n", id, res.Reason)
		if !res.Carried {
			notCarried = append(notCarried, id)
			continue
		}
		resp, err := agc.Decode("check run "+fmt.Sprint(res.From.ID), res.From.Response, agc.Limits{})
		if err != nil {
			return out, append(notCarried, id), err
		}
		if resp, err = carry.Forward(resp, res.JudgedSHA, r.rc.HeadSHA); err != nil {
			return out, append(notCarried, id), err
		}
		raw, _ := agc.Encode(resp)
		out = append(out, carriedGate{gate: agc.Doc{Response: resp, Raw: raw}, from: res.JudgedSHA, reason: res.Reason})
	}
	return out, notCarried, nil
}

// carryOn says whether this run carries: asked for, or by default on a
// pull request's new head when gates to carry are named.
func (r *actionRun) carryOn() (bool, error) {
	auto := r.rc.PR > 0 && r.rc.BeforeSHA != "" && len(r.cfg.gates) > 0
	on := r.cfg.carry.on(auto)
	if on && len(r.cfg.gates) == 0 {
		return false, &inputError{"gate", "carry needs the ids of the gates to carry, one per line"}
	}
	return on, nil
}

var errNoRepo = errors.New("carry needs the repository checked out in the workspace (actions/checkout)")
