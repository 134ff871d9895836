package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/fingerprint"
	"github.com/agcgate/agc-action/fingerprint/ghcarry"
	"github.com/agcgate/agc-action/ghapi"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// GateSubjectKey names the member that keeps a gate's own subject when
// agc-action binds its answer to a scoped fingerprint.
const GateSubjectKey = "agc-action/gate-subject"

// treeSubject reports whether a subject is content of the repository,
// which a scoped fingerprint of a commit's tree can stand for.
func treeSubject(kind string) bool {
	return slices.Contains([]string{agc.SubjectDiff, agc.SubjectCommit, agc.SubjectPullRequest}, kind)
}

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
func (r *actionRun) fingerprinter(g *fingerprint.Git) ghcarry.Fingerprinter {
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
			return s, fmt.Errorf("scope file %s at %s (fetch the base branch: git fetch --depth=1 origin %s): %w", r.cfg.scopeFile, base, r.rc.baseRef, err)
		}
		return s, nil
	case len(r.cfg.scope) > 0:
		return fingerprint.ParseScope(r.cfg.scope)
	}
	return fingerprint.ParseScope(prev.Subject.Scope)
}

// baseRev is the base branch as the checkout knows it.
func (r *actionRun) baseRev() string {
	if r.rc.baseRef == "" {
		return ""
	}
	return "origin/" + r.rc.baseRef
}

// bind gives each answer about repository content the scoped fingerprint
// of the checked-out commit, so that a later push can carry its verdict
// (docs/fingerprint.md, "Binding"). The gate's own subject is kept in the
// member agc-action/gate-subject when binding changes it.
func (r *actionRun) bind(ctx context.Context, g *fingerprint.Git, gates []ghapi.Gate) error {
	compute := r.fingerprinter(g)
	for i := range gates {
		resp := gates[i].Response
		if resp.Gate.ID == "agc-validate" || !treeSubject(resp.Subject.Kind) {
			continue
		}
		res, err := compute(ctx, "HEAD", resp)
		if err != nil {
			return fmt.Errorf("gate %s: %w", resp.Gate.ID, err)
		}
		scope := res.Scope.Patterns()
		if res.Fingerprint == resp.Subject.Fingerprint && slices.Equal(scope, resp.Subject.Scope) {
			continue
		}
		own, err := json.Marshal(struct {
			Fingerprint string   `json:"fingerprint"`
			Scope       []string `json:"scope,omitzero"`
			BoundAt     string   `json:"bound_at"`
		}{resp.Subject.Fingerprint, resp.Subject.Scope, res.Commit})
		if err != nil {
			return err
		}
		if resp.Subject.Unknown, err = agc.SetMember(resp.Subject.Unknown, GateSubjectKey, jsontext.Value(own)); err != nil {
			return err
		}
		resp.Subject.Fingerprint, resp.Subject.Scope = res.Fingerprint, scope
		if gates[i].Raw, err = agc.Encode(resp); err != nil {
			return err
		}
	}
	return nil
}

// carried is a gate whose earlier verdict now stands for this head.
type carriedGate struct {
	gate   ghapi.Gate
	from   string // the commit the verdict was judged on
	reason string
}

// carry tries to carry each gate named by the gate input from the
// previous head; the results go to the log, the summary and the outputs.
func (r *actionRun) carry(ctx context.Context, gh *ghapi.Client, g *fingerprint.Git) ([]carriedGate, []string, error) {
	var out []carriedGate
	var notCarried []string
	for _, id := range r.cfg.gates {
		res, err := gh.CarryGate(ctx, ghapi.CarryOptions{Gate: id, AppID: r.cfg.appID, HeadSHA: r.rc.headSHA, Rev: "HEAD",
			Before: r.rc.beforeSHA, PR: r.rc.pr, Compute: r.fingerprinter(g)})
		if err != nil {
			return out, append(notCarried, id), fmt.Errorf("gate %s: %w", id, err)
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
		if resp, err = fingerprint.Carry(resp, res.JudgedSHA, r.rc.headSHA); err != nil {
			return out, append(notCarried, id), err
		}
		raw, _ := agc.Encode(resp)
		out = append(out, carriedGate{gate: ghapi.Gate{Response: resp, Raw: raw}, from: res.JudgedSHA, reason: res.Reason})
	}
	return out, notCarried, nil
}

// carryOn says whether this run carries: asked for, or by default on a
// pull request's new head when gates to carry are named.
func (r *actionRun) carryOn() (bool, error) {
	auto := r.rc.pr > 0 && r.rc.beforeSHA != "" && len(r.cfg.gates) > 0
	on := r.cfg.carry.on(auto)
	if on && len(r.cfg.gates) == 0 {
		return false, &inputError{"gate", "carry needs the ids of the gates to carry, one per line"}
	}
	return on, nil
}

var errNoRepo = errors.New("carry needs the repository checked out in the workspace (actions/checkout)")
