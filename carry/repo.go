package carry

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/fingerprint"
)

// Scoping says what, besides the response, defines a gate's fingerprint.
type Scoping struct {
	// ScopeFile, when set, is the repo path of the scope file, read at
	// Base (the base branch), never at the commit judged: a pull request
	// cannot shrink the scope it is judged on. When empty, the response's
	// own subject.scope is used.
	ScopeFile, Base string
	// GateConfigs are the repo paths of the gate's configuration files,
	// read from the commit fingerprinted.
	GateConfigs []string
}

// RepoFingerprinter fingerprints revisions of repo as sc says, bound to
// the previous response's gate id and version.
func RepoFingerprinter(repo fingerprint.Repo, sc Scoping) Fingerprinter {
	return func(ctx context.Context, rev string, prev *agc.Response) (*fingerprint.Result, error) {
		scope, err := sc.scope(ctx, repo, prev)
		if err != nil {
			return nil, err
		}
		return fingerprint.Compute(ctx, repo, fingerprint.Options{Rev: rev, Scope: scope,
			GateID: prev.Gate.ID, GateVersion: prev.Gate.Version, GateConfigs: sc.GateConfigs})
	}
}

func (sc Scoping) scope(ctx context.Context, repo fingerprint.Repo, prev *agc.Response) (fingerprint.Scope, error) {
	if sc.ScopeFile == "" {
		s, err := fingerprint.ParseScope(prev.Subject.Scope)
		if err != nil {
			return fingerprint.Scope{}, fmt.Errorf("/subject/scope: %w", err)
		}
		return s, nil
	}
	if sc.Base == "" {
		return fingerprint.Scope{}, fmt.Errorf("scope file %s: no base revision to read it from", sc.ScopeFile)
	}
	return fingerprint.ReadScopeFile(ctx, repo, sc.Base, sc.ScopeFile)
}

// PreviousHeads lists the earlier heads to look at, newest first: before
// (the synchronize event's), then the pull request's commits (oldest first,
// as GitHub lists them) from the newest, leaving out head, zero ids and
// repeats, at most max of them (max <= 0: no bound).
func PreviousHeads(head, before string, prCommits []string, max int) []string {
	var out []string
	add := func(sha string) {
		if sha == "" || sha == head || strings.Trim(sha, "0") == "" || slices.Contains(out, sha) {
			return
		}
		if max <= 0 || len(out) < max {
			out = append(out, sha)
		}
	}
	add(before)
	for i := len(prCommits) - 1; i >= 0; i-- {
		add(prCommits[i])
	}
	return out
}
