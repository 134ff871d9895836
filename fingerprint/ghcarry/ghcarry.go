// Package ghcarry carries a gate's verdict across pushes on GitHub: on a
// pull request's new head, it finds the gate's latest check run on an
// earlier head, written by the same app, and, when the scoped fingerprint
// is unchanged, posts the same conclusion on the new head
// (docs/fingerprint.md, "Carrying on GitHub").
//
// It declares what it needs of GitHub as the CheckRuns interface; ghapi
// implements it. It does no I/O of its own.
package ghcarry

import (
	"context"
	"fmt"
	"slices"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/fingerprint"
)

// CheckRun is what carrying reads of an existing check run.
type CheckRun struct {
	ID         int64
	AppID      int64 // the GitHub App that wrote it
	Name       string
	HeadSHA    string
	Status     string // only "completed" runs count
	Conclusion string
	HTMLURL    string
	// Response is the AGC response embedded in the run (ghapi.ReadBackRaw),
	// nil when it carries none.
	Response []byte
}

// NewCheckRun is a completed check run to create.
type NewCheckRun struct {
	Name       string
	HeadSHA    string
	Conclusion string
	Title      string
	Summary    string
	DetailsURL string
	Response   []byte // the carried response, to embed
}

// CheckRuns is what ghapi must provide.
type CheckRuns interface {
	// List returns the check runs named name on commit sha, of every app
	// (GET /repos/{o}/{r}/commits/{sha}/check-runs?check_name=name, all pages).
	List(ctx context.Context, sha, name string) ([]CheckRun, error)
	// Create posts a completed check run (POST /repos/{o}/{r}/check-runs).
	Create(ctx context.Context, run NewCheckRun) error
}

// Fingerprinter computes the fingerprint of rev for gate, over the scope
// the workflow configures (read from the base branch) and the gate's
// configuration files.
type Fingerprinter func(ctx context.Context, rev string, gate agc.Gate) (string, error)

// Input says what to carry where.
type Input struct {
	GateID   string   // the gate; its check run is agc/<GateID>
	AppID    int64    // only check runs written by this app are trusted
	Head     string   // the new head
	Previous []string // earlier heads, newest first: the push's before, then older ones
	Compute  Fingerprinter
}

// Result says what happened.
type Result struct {
	Carried bool
	From    *CheckRun // the run carried (or compared against)
	Reason  string    // why it was not carried
}

// CheckName is the check run name of a gate.
func CheckName(gate string) string { return "agc/" + gate }

// Carry looks for the latest trusted check run of the gate on the earlier
// heads, in order, and carries it to the new head when the fingerprint at
// the head equals the one the run's response was judged on. Failures are
// carried like successes.
func Carry(ctx context.Context, runs CheckRuns, in Input) (*Result, error) {
	name := CheckName(in.GateID)
	for _, sha := range in.Previous {
		list, err := runs.List(ctx, sha, name)
		if err != nil {
			return nil, fmt.Errorf("list %s on %s: %w", name, sha, err)
		}
		run := latestTrusted(list, name, sha, in.AppID)
		if run == nil {
			continue
		}
		return carryRun(ctx, runs, in, run)
	}
	return &Result{Reason: fmt.Sprintf("no completed %s check run by app %d on %d earlier heads", name, in.AppID, len(in.Previous))}, nil
}

// latestTrusted returns the newest completed run of name on sha written by
// app, ignoring every other app's runs (anyone with write access can post
// a check run of any name through another app).
func latestTrusted(list []CheckRun, name, sha string, app int64) *CheckRun {
	var best *CheckRun
	for i := range list {
		r := &list[i]
		if r.AppID != app || r.Name != name || r.HeadSHA != sha || r.Status != "completed" {
			continue
		}
		if best == nil || r.ID > best.ID {
			best = r
		}
	}
	return best
}

func carryRun(ctx context.Context, runs CheckRuns, in Input, run *CheckRun) (*Result, error) {
	if run.Response == nil {
		return &Result{From: run, Reason: fmt.Sprintf("check run %d carries no AGC response", run.ID)}, nil
	}
	prev, err := agc.Decode(fmt.Sprintf("check run %d", run.ID), run.Response, agc.Limits{})
	if err != nil {
		return nil, err
	}
	if prev.Gate.ID != in.GateID {
		return &Result{From: run, Reason: fmt.Sprintf("check run %d holds a response of gate %q", run.ID, prev.Gate.ID)}, nil
	}
	if !slices.Contains([]string{agc.SubjectDiff, agc.SubjectCommit, agc.SubjectPullRequest}, prev.Subject.Kind) {
		return &Result{From: run, Reason: fmt.Sprintf("subject kind %q is not a tree", prev.Subject.Kind)}, nil
	}
	now, err := in.Compute(ctx, in.Head, prev.Gate)
	if err != nil {
		return nil, err
	}
	if now != prev.Subject.Fingerprint {
		return &Result{From: run, Reason: fmt.Sprintf("the scoped content changed since %s: %s, was %s", short(run.HeadSHA), now, prev.Subject.Fingerprint)}, nil
	}
	carried, err := fingerprint.Carry(prev, run.HeadSHA, in.Head)
	if err != nil {
		return nil, err
	}
	raw, err := agc.Encode(carried)
	if err != nil {
		return nil, err
	}
	err = runs.Create(ctx, NewCheckRun{
		Name: CheckName(in.GateID), HeadSHA: in.Head, Conclusion: run.Conclusion,
		Title:      fmt.Sprintf("carried from %s: scope unchanged", short(run.HeadSHA)),
		Summary:    fmt.Sprintf("The content in this gate's scope is unchanged since %s (fingerprint `%s`), so its verdict carries: [the original check run](%s).", run.HeadSHA, now, run.HTMLURL),
		DetailsURL: run.HTMLURL, Response: raw,
	})
	if err != nil {
		return nil, fmt.Errorf("post carried %s on %s: %w", CheckName(in.GateID), in.Head, err)
	}
	return &Result{Carried: true, From: run}, nil
}

func short(sha string) string { return sha[:min(len(sha), 7)] }
