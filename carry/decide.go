package carry

import (
	"fmt"
	"slices"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/subject"
)

// ShortLen is how many hex digits of a commit id the messages of carrying
// show (git's and GitHub's default abbreviation).
const ShortLen = 7

// Short abbreviates a commit id to ShortLen digits for messages and titles.
func Short(sha string) string { return sha[:min(len(sha), ShortLen)] }

// TreeSubject reports whether a subject kind is content of the repository
// (diff, commit, pull-request), which a scoped fingerprint of a commit's
// tree stands for: only such verdicts can be bound, recomputed and carried.
func TreeSubject(kind string) bool {
	return slices.Contains([]string{agc.SubjectDiff, agc.SubjectCommit, agc.SubjectPullRequest}, kind)
}

// Judged is what a gate's verdict was judged on.
type Judged struct {
	// Fingerprint is the one the response names (subject.fingerprint).
	Fingerprint string
	// Scope is the scope that fingerprint was computed over.
	Scope subject.Scope
	// At is the fingerprint recomputed at the commit judged, over Scope;
	// nil when that commit is not known or not in the clone.
	At *subject.Result
}

// Decision is what Decide answers.
type Decision struct {
	// Carried: the content now is the content judged, so the verdict
	// stands for the new commit.
	Carried bool
	// Stale: the commit judged, recomputed, does not have the judged
	// fingerprint; the verdict was judged on other content (or another
	// gate configuration, or another algorithm), and a record naming that
	// commit would lie.
	Stale bool
	// ScopeChanged: the scope now is not the scope judged.
	ScopeChanged bool
	// Changes names, one line each, what differs between the commit
	// judged and now: the gate, its configuration files, then the entries
	// (subject.Diff). Nil without Judged.At, or when the two
	// fingerprints are equal.
	Changes []string
}

// Decide compares what a gate judged with what is there now, the
// fingerprint recomputed at the commit to carry to. The verdict carries
// when now has the judged fingerprint and, when the commit judged was
// recomputed, so does that. Whatever the verdict: failures carry like
// successes.
//
// Naming the changes needs Judged.At; a caller that spares recomputing the
// commit judged until the verdict does not carry calls Decide again with it.
func Decide(j Judged, now *subject.Result) Decision {
	d := Decision{Stale: j.At != nil && j.At.Fingerprint != j.Fingerprint}
	d.Carried = now.Fingerprint == j.Fingerprint && !d.Stale
	if d.Carried {
		return d
	}
	d.ScopeChanged = !j.Scope.Equal(now.Scope)
	if j.At != nil {
		d.Changes = changes(j.At, now)
	}
	return d
}

// changes says how the gate and the selected entries differ between then
// and now; nothing when their fingerprints are equal.
func changes(then, now *subject.Result) []string {
	if then.Fingerprint == now.Fingerprint {
		return nil
	}
	var out []string
	if then.Gate.ID != now.Gate.ID || then.Gate.Version != now.Gate.Version {
		out = append(out, fmt.Sprintf("the gate changed: %q version %q, was %q version %q", now.Gate.ID, now.Gate.Version, then.Gate.ID, then.Gate.Version))
	}
	out = append(out, subject.GateChanges(then.Gate, now.Gate)...)
	thenTree, err := then.Entries()
	var nowTree subject.Tree
	if err == nil {
		nowTree, err = now.Entries()
	}
	if err != nil {
		return append(out, fmt.Sprintf("the entries could not be listed to say what changed: %v", err))
	}
	for _, ch := range subject.Diff(thenTree, nowTree) {
		out = append(out, ch.String())
	}
	return out
}
