package carry

import (
	"context"
	"fmt"

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
	DetailsURL string
	// Response is the AGC response embedded in the run (review.ReadBackRaw),
	// nil when it carries none; ResponseErr says why when it had one that
	// could not be read back.
	Response    []byte
	ResponseErr string
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

// CheckRuns is what carrying reads and writes of a commit's check runs.
type CheckRuns interface {
	// List returns the check runs named name on commit sha, of every app
	// (GET /repos/{o}/{r}/commits/{sha}/check-runs?check_name=name, all pages).
	List(ctx context.Context, sha, name string) ([]CheckRun, error)
	// Create posts a completed check run (POST /repos/{o}/{r}/check-runs).
	Create(ctx context.Context, run NewCheckRun) error
}

// Fingerprinter computes the fingerprint at rev of what prev judged: over
// prev's scope (or the scope the workflow configures, read from the base
// branch), bound to prev's gate and the gate's configuration files.
type Fingerprinter func(ctx context.Context, rev string, prev *agc.Response) (*fingerprint.Result, error)

// Input says what to carry where.
type Input struct {
	GateID string // the gate; its check run is agc/<GateID>
	AppID  int64  // only check runs written by this app are trusted
	Head   string // the new head, where the carried run is posted
	// Rev is the revision fingerprinted, "" for Head (a workflow that
	// checks out the merge commit passes it here).
	Rev      string
	Previous []string // earlier heads, newest first: the push's before, then older ones
	Compute  Fingerprinter
	// Conclusion maps a verdict to the conclusion a run of it has
	// (GitHub.Conclusion); a run whose conclusion is not its response's is
	// not carried. nil skips the check.
	Conclusion func(verdict string) string
}

// Result says what happened.
type Result struct {
	Carried bool
	From    *CheckRun // the run carried (or compared against); nil when none was found
	// JudgedSHA is the commit the verdict was judged on (kept through
	// carries of carries).
	JudgedSHA   string
	Fingerprint string   // the fingerprint at the new head, when computed
	Reason      string   // why it was carried, or why not
	Changes     []string // what changed in the scope, when it can be named
}

// CheckName is the check run name of a gate.
func CheckName(gate string) string { return "agc/" + gate }

// CarriedTitle is the title of a carried check run.
func CarriedTitle(judged string) string {
	return fmt.Sprintf("carried from %s: scope unchanged", Short(judged))
}

// FromHeads looks for the latest trusted check run of the gate on the
// earlier heads, in order, and carries it to the new head when the fingerprint at
// the head equals the one the run's response was judged on. Failures are
// carried like successes. A run that cannot be carried is an answer (a
// Result with a Reason), not an error; errors are failures to ask GitHub,
// to compute the fingerprint, or to post.
func FromHeads(ctx context.Context, runs CheckRuns, in Input) (*Result, error) {
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
	prev, why := candidate(in, run)
	if why != "" {
		return &Result{From: run, Reason: why}, nil
	}
	rev := in.Rev
	if rev == "" {
		rev = in.Head
	}
	now, err := in.Compute(ctx, rev, prev)
	if err != nil {
		return nil, fmt.Errorf("fingerprint %s at %s: %w", CheckName(in.GateID), rev, err)
	}
	// The fingerprinter reads one scope at every commit (the scope file at
	// the base, or the response's own): the scope judged is the scope now.
	judged := Judged{Fingerprint: prev.Subject.Fingerprint, Scope: now.Scope}
	if !Decide(judged, now).Carried {
		res := &Result{From: run, Fingerprint: now.Fingerprint,
			Reason: fmt.Sprintf("the scoped content changed since %s: %s, was %s", Short(run.HeadSHA), now.Fingerprint, prev.Subject.Fingerprint)}
		// Name the entries when the earlier head is in the clone; a
		// shallow clone may not have it, and then only the values differ.
		if then, err := in.Compute(ctx, run.HeadSHA, prev); err == nil {
			judged.At = then
			res.Changes = Decide(judged, now).Changes
		}
		return res, nil
	}
	return post(ctx, runs, in, run, prev, now.Fingerprint)
}

// candidate decodes the run's response and says why it cannot be carried
// ("" when it can).
func candidate(in Input, run *CheckRun) (*agc.Response, string) {
	if run.Response == nil {
		why := fmt.Sprintf("check run %d carries no AGC response", run.ID)
		if run.ResponseErr != "" {
			why += ": " + run.ResponseErr
		}
		return nil, why
	}
	prev, err := agc.Decode(fmt.Sprintf("check run %d", run.ID), run.Response, agc.Limits{})
	switch {
	case err != nil:
		return nil, fmt.Sprintf("check run %d: the embedded response does not decode: %v", run.ID, err)
	case prev.Gate.ID != in.GateID:
		return nil, fmt.Sprintf("check run %d holds a response of gate %q", run.ID, prev.Gate.ID)
	case !TreeSubject(prev.Subject.Kind):
		return nil, fmt.Sprintf("check run %d: subject kind %q is not a tree", run.ID, prev.Subject.Kind)
	case in.Conclusion != nil && in.Conclusion(prev.Verdict) != run.Conclusion:
		return nil, fmt.Sprintf("check run %d: conclusion %q is not that of its verdict %s", run.ID, run.Conclusion, prev.Verdict)
	}
	return prev, ""
}

// post creates the carried run on the new head: the same conclusion, the
// original's link, the carried response embedded.
func post(ctx context.Context, runs CheckRuns, in Input, run *CheckRun, prev *agc.Response, fp string) (*Result, error) {
	carried, err := Forward(prev, run.HeadSHA, in.Head)
	if err != nil {
		return nil, fmt.Errorf("check run %d: %w", run.ID, err)
	}
	rec, _, err := ReadRecord(carried)
	if err != nil {
		return nil, fmt.Errorf("check run %d: %w", run.ID, err)
	}
	raw, err := agc.Encode(carried)
	if err != nil {
		return nil, err
	}
	link := run.HTMLURL
	if _, wasCarried, _ := ReadRecord(prev); wasCarried && run.DetailsURL != "" {
		link = run.DetailsURL // a carried run links the run that judged
	}
	err = runs.Create(ctx, NewCheckRun{
		Name: CheckName(in.GateID), HeadSHA: in.Head, Conclusion: run.Conclusion,
		Title: CarriedTitle(rec.SHA),
		Summary: fmt.Sprintf("The content in the scope of gate `%s` is unchanged since %s (fingerprint `%s`), so its verdict (%s) carries: "+
			"[the check run that judged it](%s).", in.GateID, rec.SHA, fp, prev.Verdict, link),
		DetailsURL: link, Response: raw,
	})
	if err != nil {
		return nil, fmt.Errorf("post carried %s on %s: %w", CheckName(in.GateID), in.Head, err)
	}
	return &Result{Carried: true, From: run, JudgedSHA: rec.SHA, Fingerprint: fp,
		Reason: fmt.Sprintf("%s carried from %s: scope unchanged (%s)", prev.Verdict, Short(rec.SHA), fp)}, nil
}
