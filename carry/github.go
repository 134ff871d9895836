package carry

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"github.com/agcgate/agc-action/agc"
)

// CheckRun is what carrying reads of an existing check run.
type CheckRun struct {
	ID         int64
	AppID      int64 // the GitHub App that wrote it
	Name       string
	HeadSHA    string
	Status     string // only "completed" runs count
	Conclusion string
	// Completed is when the run completed (a person's decision is taken
	// only on a run that completed before the comment was made).
	Completed  time.Time
	HTMLURL    string
	DetailsURL string
	// ExternalID is the run's external_id: for agc/agc-validate, the job
	// that wrote it (ValidatorJob).
	ExternalID string
	// Response is the AGC response embedded in the run (review.ReadBackRaw),
	// nil when it carries none; ResponseErr says why when it had one that
	// could not be read back.
	Response    []byte
	ResponseErr string
	// Binding is the binding record at the start of the run's text
	// (ReadBinding), nil when it has none; BindingErr says why when it had
	// one that could not be read.
	Binding    *Binding
	BindingErr string
}

// NewCheckRun is a completed check run to create.
type NewCheckRun struct {
	Name       string
	HeadSHA    string
	Conclusion string
	Title      string
	Summary    string
	DetailsURL string
	Response   []byte   // the carried response, to embed
	Binding    *Binding // its binding record, to embed before it
}

// CheckRuns is what carrying reads and writes of a commit's check runs.
type CheckRuns interface {
	// List returns the check runs named name on commit sha, of every app
	// (GET /repos/{o}/{r}/commits/{sha}/check-runs?check_name=name, all pages).
	List(ctx context.Context, sha, name string) ([]CheckRun, error)
	// Create posts a completed check run (POST /repos/{o}/{r}/check-runs).
	Create(ctx context.Context, run NewCheckRun) error
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
	// Response is the carried response as posted on the new head, with
	// its carry record; nil when not carried.
	Response *agc.Response
}

// CheckName is the check run name of a gate.
func CheckName(gate string) string { return "agc/" + gate }

// CarriedTitle is the title of a carried check run.
func CarriedTitle(judged string) string {
	return fmt.Sprintf("carried from %s: scope unchanged", Short(judged))
}

// fromHeads looks for the latest trusted check run of the gate on the
// earlier heads, newest first, and carries it to the new head when the
// fingerprint at the head, over the workflow's scope, equals the one its
// binding record names (and, where the commit judged can be read, the one
// recomputed there). conclusion maps a verdict to the conclusion a run of
// it has (GitHub.Conclusion): a run whose conclusion is not its
// response's is not carried. Failures are carried like successes. A run
// that cannot be carried is an answer (a Result with a Reason), not an
// error; errors are failures to ask GitHub, to compute the fingerprint, or
// to post.
func fromHeads(ctx context.Context, runs CheckRuns, o Options, heads []string, conclusion func(verdict string) string) (*Result, error) {
	if !o.Workflow.Defined() {
		return &Result{Reason: ErrNoScope.Error()}, nil
	}
	name := CheckName(o.Gate)
	for _, sha := range heads {
		list, err := runs.List(ctx, sha, name)
		if err != nil {
			return nil, fmt.Errorf("list %s on %s: %w", name, sha, err)
		}
		if run := LatestTrusted(list, name, sha, o.AppID); run != nil {
			return carryRun(ctx, runs, o, run, conclusion)
		}
	}
	return &Result{Reason: fmt.Sprintf("no completed %s check run by app %d on %d earlier heads", name, o.AppID, len(heads))}, nil
}

// LatestTrusted returns the newest completed run of name on sha written by
// app, nil when there is none: the one run of a gate on a head that
// carrying, and the chain of rounds (package rounds), trust. Every other
// app's runs are ignored (anyone with write access can post a check run of
// any name through another app).
func LatestTrusted(list []CheckRun, name, sha string, app int64) *CheckRun {
	var best *CheckRun
	for i := range list {
		if r := &list[i]; r.trusted(name, sha, app) && (best == nil || r.ID > best.ID) {
			best = r
		}
	}
	return best
}

// trusted reports whether r is a completed run of name on sha written by
// app.
func (r *CheckRun) trusted(name, sha string, app int64) bool {
	return r.AppID == app && r.Name == name && r.HeadSHA == sha && r.Status == "completed"
}

func carryRun(ctx context.Context, runs CheckRuns, in Options, run *CheckRun, conclusion func(string) string) (*Result, error) {
	prev, b, why := candidate(in.Gate, run, conclusion)
	if why != "" {
		return &Result{From: run, Reason: why}, nil
	}
	rev := cmp.Or(in.Rev, in.HeadSHA)
	now, err := in.Compute(ctx, in.Workflow.Options(agc.Gate{ID: b.Gate, Version: b.GateVersion}, rev))
	if err != nil {
		return nil, fmt.Errorf("fingerprint %s at %s: %w", CheckName(in.Gate), rev, err)
	}
	res := &Result{From: run, JudgedSHA: b.SHA, Fingerprint: now.Fingerprint}
	if now.Count() == 0 {
		res.Reason = fmt.Sprintf("the scope %s (%s) selects no entry at %s: a verdict about nothing is never carried", quoted(now.Scope.Patterns()), in.Workflow.ScopeFrom, Short(now.Commit))
		return res, nil
	}
	judgedAt, err := b.Options()
	if err != nil {
		res.Reason = fmt.Sprintf("check run %d: %v", run.ID, err)
		return res, nil
	}
	judged := Judged{Fingerprint: b.Fingerprint, Scope: judgedAt.Scope}
	// Where the commit judged can be read, its fingerprint is recomputed
	// too; where it cannot (a shallow clone), the record of our own run
	// stands for it.
	how := fmt.Sprintf("recomputed at %s", Short(b.Commit))
	if in.Have == nil {
		how = fmt.Sprintf("by the binding record of check run %d: %s is not looked for in the clone", run.ID, Short(b.Commit))
	} else if why := in.Have(ctx, b.Commit); why != nil {
		how = fmt.Sprintf("by the binding record of check run %d: %v", run.ID, why)
	} else if judged.At, err = in.Compute(ctx, judgedAt); err != nil {
		res.Reason = fmt.Sprintf("the fingerprint judged cannot be recomputed at %s: %v", Short(b.Commit), err)
		return res, nil
	}
	d := Decide(judged, now)
	res.Changes = d.Changes
	switch {
	case d.Stale:
		res.Reason = fmt.Sprintf("check run %d is bound to %s at %s, but recomputed there it is %s: not carried", run.ID, b.Fingerprint, Short(b.Commit), judged.At.Fingerprint)
		return res, nil
	case !d.Carried:
		res.Reason = fmt.Sprintf("the scoped content changed since %s: %s, was %s", Short(run.HeadSHA), now.Fingerprint, b.Fingerprint)
		return res, nil
	}
	return post(ctx, runs, in, run, prev, b, now.Fingerprint, how)
}

// candidate reads the run's binding record and decodes its response, and
// says why they cannot be carried ("" when they can).
func candidate(gate string, run *CheckRun, conclusion func(string) string) (*agc.Response, *Binding, string) {
	b := run.Binding
	switch {
	case b == nil && run.BindingErr != "":
		return nil, nil, fmt.Sprintf("check run %d: %s", run.ID, run.BindingErr)
	case b == nil:
		return nil, nil, fmt.Sprintf("check run %d has no binding record: agc-action did not bind its answer to a scoped fingerprint "+
			"(the Action binds with its scope or scope-file input, agc-sarif github with --scope or --scope-file), so nothing says what it judged", run.ID)
	case b.Gate != gate:
		return nil, nil, fmt.Sprintf("check run %d is bound for gate %q", run.ID, b.Gate)
	case b.CarriedTo == "" && b.SHA != run.HeadSHA, b.CarriedTo != "" && b.CarriedTo != run.HeadSHA:
		return nil, nil, fmt.Sprintf("check run %d on %s holds the binding of another commit", run.ID, Short(run.HeadSHA))
	}
	if run.Response == nil {
		why := fmt.Sprintf("check run %d carries no AGC response", run.ID)
		if run.ResponseErr != "" {
			why += ": " + run.ResponseErr
		}
		return nil, nil, why
	}
	prev, err := agc.Decode(fmt.Sprintf("check run %d", run.ID), run.Response, agc.Limits{})
	switch {
	case err != nil:
		return nil, nil, fmt.Sprintf("check run %d: the embedded response does not decode: %v", run.ID, err)
	case prev.Gate.ID != gate || prev.Gate.Version != b.GateVersion:
		return nil, nil, fmt.Sprintf("check run %d holds a response of gate %q version %q, bound for %q version %q", run.ID, prev.Gate.ID, prev.Gate.Version, b.Gate, b.GateVersion)
	case !TreeSubject(prev.Subject.Kind):
		return nil, nil, fmt.Sprintf("check run %d: subject kind %q is not a tree", run.ID, prev.Subject.Kind)
	case b.Decision != nil && b.Decision.Conclusion != run.Conclusion:
		return nil, nil, fmt.Sprintf("check run %d: conclusion %q is not that of its decision %s", run.ID, run.Conclusion, b.Decision.Option)
	case b.Decision == nil && conclusion(prev.Verdict) != run.Conclusion:
		return nil, nil, fmt.Sprintf("check run %d: conclusion %q is not that of its verdict %s", run.ID, run.Conclusion, prev.Verdict)
	}
	return prev, b, ""
}

// post creates the carried run on the new head: the same conclusion, the
// original's link, the carried response embedded with the binding record
// (carried to the head). The response's carry record is made from the
// binding, not from anything the response held.
func post(ctx context.Context, runs CheckRuns, in Options, run *CheckRun, prev *agc.Response, b *Binding, fp, how string) (*Result, error) {
	if _, err := Strip(prev); err != nil {
		return nil, fmt.Errorf("check run %d: %w", run.ID, err)
	}
	carried, err := withRecord(prev, Record{SHA: b.SHA, Fingerprint: b.Fingerprint, To: in.HeadSHA})
	if err != nil {
		return nil, fmt.Errorf("check run %d: %w", run.ID, err)
	}
	raw, err := agc.Encode(carried)
	if err != nil {
		return nil, err
	}
	link := run.HTMLURL
	if b.CarriedTo != "" && run.DetailsURL != "" {
		link = run.DetailsURL // a carried run links the run that judged
	}
	nb := *b
	nb.CarriedTo = in.HeadSHA
	verdict, what, by := prev.Verdict, fmt.Sprintf("its verdict (%s)", prev.Verdict), "judged it"
	if b.Decision != nil {
		// no option: it may be a gate's words
		verdict = fmt.Sprintf("the decision of %s (%s)", b.Decision.By, b.Decision.Conclusion)
		what, by = verdict, "recorded it"
	}
	err = runs.Create(ctx, NewCheckRun{
		Name: CheckName(in.Gate), HeadSHA: in.HeadSHA, Conclusion: run.Conclusion,
		Title: CarriedTitle(b.SHA),
		Summary: fmt.Sprintf("The content in the scope of gate `%s` is unchanged since %s (fingerprint `%s`), so %s carries: "+
			"[the check run that %s](%s).", in.Gate, b.SHA, fp, what, by, link),
		DetailsURL: link, Response: raw, Binding: &nb,
	})
	if err != nil {
		return nil, fmt.Errorf("post carried %s on %s: %w", CheckName(in.Gate), in.HeadSHA, err)
	}
	return &Result{Carried: true, From: run, JudgedSHA: b.SHA, Fingerprint: fp, Response: carried,
		Reason: fmt.Sprintf("%s carried from %s: scope unchanged (%s; %s)", verdict, Short(b.SHA), fp, how)}, nil
}
