package rounds

import (
	"context"
	"fmt"
	"slices"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/carry"
)

// DefaultHeads bounds the earlier heads Read looks at.
const DefaultHeads = 100

// Reader is what reading a chain asks of GitHub; deliver.CarryRuns (and any
// carry.GitHub) implements it.
type Reader interface {
	// List returns the check runs named name on commit sha, of every app.
	List(ctx context.Context, sha, name string) ([]carry.CheckRun, error)
	// PullRequestCommits returns a pull request's commits, oldest first.
	PullRequestCommits(ctx context.Context, number int) ([]string, error)
	// Conclusion is the conclusion of a check run of verdict.
	Conclusion(verdict string) string
}

// ReadOptions say whose chain to read.
type ReadOptions struct {
	Gate  string // the gate; its check runs are agc/<Gate>
	AppID int64  // only runs by this app are rounds; 0 is carry.ActionsAppID
	Head  string // the head the next round reports on; rounds are read below it
	// Before is a synchronize event's before, looked at first ("" when none).
	Before   string
	PR       int // the pull request; 0: no chain
	MaxHeads int // earlier heads looked at; 0 is DefaultHeads
	// Like is the answer the chain is read for: a round of another gate
	// version, gate kind, subject kind or subject scope belongs to another
	// chain and ends the reading. nil: not compared.
	Like *agc.Response
}

// Round is one round of a chain: a trusted check run and the response it
// embeds.
type Round struct {
	SHA string // the head the run is on
	// Judged is the commit the round judged: SHA, or for a run carried to
	// SHA the commit its binding record names.
	Judged   string
	RunID    int64
	Carried  bool // the run was carried to SHA (it stands for the round it carries)
	Response *agc.Response
}

// Ends reports whether the round ends its chain, so that the next round
// opens a new one: an allow or repaired verdict. (An escalation does not:
// it hands the loop to a person, docs/rounds.md.)
func (r Round) Ends() bool {
	return r.Response.Verdict == agc.Allow || r.Response.Verdict == agc.Repaired
}

// Chain is the open chain of a gate on a pull request, as read back.
type Chain struct {
	Gate   string
	Rounds []Round // oldest first; empty when no chain is open
	// Notes say, for the log, which runs were not taken as rounds and why,
	// and where reading stopped.
	Notes []string
}

// Responses are the chain's rounds' responses, oldest first.
func (c *Chain) Responses() []*agc.Response {
	out := make([]*agc.Response, len(c.Rounds))
	for i, r := range c.Rounds {
		out[i] = r.Response
	}
	return out
}

// Read reads the open chain of a gate on a pull request: for each earlier
// head (Before, then the pull request's commits below Head, newest first)
// the latest completed agc/<gate> run by the trusted app, back to the
// round that opened the chain (attempt.n 1), a round that ended an earlier
// chain, or a round of another gate version or scope (docs/rounds.md, "The
// chain on GitHub"). A run that is not a round is skipped and noted. An
// error is a failure to ask GitHub.
func Read(ctx context.Context, gh Reader, o ReadOptions) (*Chain, error) {
	c := &Chain{Gate: o.Gate}
	if o.PR <= 0 || o.Gate == "" {
		return c, nil
	}
	if o.AppID == 0 {
		o.AppID = carry.ActionsAppID
	}
	if o.MaxHeads <= 0 {
		o.MaxHeads = DefaultHeads
	}
	commits, err := gh.PullRequestCommits(ctx, o.PR)
	if err != nil {
		return nil, err
	}
	if i := slices.Index(commits, o.Head); i >= 0 {
		commits = commits[:i] // rounds come before the head, in the pull request's order
	}
	name := carry.CheckName(o.Gate)
	var kept []Round // newest first
	for _, sha := range carry.PreviousHeads(o.Head, o.Before, commits, o.MaxHeads) {
		list, err := gh.List(ctx, sha, name)
		if err != nil {
			return nil, fmt.Errorf("list %s on %s: %w", name, sha, err)
		}
		run := carry.LatestTrusted(list, name, sha, o.AppID)
		if run == nil {
			continue
		}
		if b := run.Binding; b != nil && b.Decision != nil {
			// A person's decision ends the chain (docs/rounds.md, "A
			// person decides"): the rounds before it are not of the next.
			c.Notes = append(c.Notes, fmt.Sprintf("check run %d on %s records a decision by %s: it ended the chain before", run.ID, carry.Short(sha), b.Decision.By))
			break
		}
		rd, why := roundOf(gh, o, run)
		if why != "" {
			c.Notes = append(c.Notes, why)
			continue
		}
		n := rd.Response.Attempt.N
		switch {
		case rd.Ends():
			c.Notes = append(c.Notes, fmt.Sprintf("round %d on %s (%s) ended the chain before", n, carry.Short(sha), rd.Response.Verdict))
		case o.Like != nil && !sameChain(o.Like, rd.Response):
			c.Notes = append(c.Notes, fmt.Sprintf("check run %d on %s is of another gate version, kind or scope: a new chain", run.ID, carry.Short(sha)))
		case len(kept) > 0 && n >= kept[len(kept)-1].Response.Attempt.N:
			// The same round again (carried, or judged again after an
			// escalation): the newer one stands.
			continue
		default:
			kept = append(kept, rd)
			if n > 1 {
				continue
			}
		}
		break
	}
	slices.Reverse(kept)
	c.Rounds = kept
	return c, nil
}

// roundOf reads a trusted run as a round, or says why it is none.
func roundOf(gh Reader, o ReadOptions, run *carry.CheckRun) (Round, string) {
	rd := Round{SHA: run.HeadSHA, Judged: run.HeadSHA, RunID: run.ID}
	if b := run.Binding; b != nil && b.CarriedTo != "" {
		rd.Judged, rd.Carried = b.SHA, true
	}
	if run.Response == nil {
		why := fmt.Sprintf("check run %d on %s embeds no AGC response: not a round", run.ID, carry.Short(run.HeadSHA))
		if run.ResponseErr != "" {
			why += ": " + run.ResponseErr
		}
		return rd, why
	}
	r, err := agc.Decode(fmt.Sprintf("check run %d", run.ID), run.Response, agc.Limits{})
	switch {
	case err != nil:
		return rd, fmt.Sprintf("check run %d on %s: the embedded response does not decode (%v): not a round", run.ID, carry.Short(run.HeadSHA), err)
	case r.Gate.ID != o.Gate:
		return rd, fmt.Sprintf("check run %d on %s holds a response of gate %q: not a round", run.ID, carry.Short(run.HeadSHA), r.Gate.ID)
	case gh.Conclusion(r.Verdict) != run.Conclusion:
		return rd, fmt.Sprintf("check run %d on %s: conclusion %q is not that of its verdict %s: not a round", run.ID, carry.Short(run.HeadSHA), run.Conclusion, r.Verdict)
	}
	rd.Response = r
	return rd, ""
}

// sameChain reports whether an earlier round r can be of the chain of
// answer a: the same gate kind and version, subject kind and scope (§9: a
// chain is the rounds on one subject scope; §4: a change of rules is a
// change of version).
func sameChain(a, r *agc.Response) bool {
	return a.Gate.Kind == r.Gate.Kind && a.Gate.Version == r.Gate.Version && a.Subject.Kind == r.Subject.Kind &&
		sameSet(a.Subject.Scope, r.Subject.Scope)
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
