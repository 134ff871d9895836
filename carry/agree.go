package carry

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/agcgate/agc-action/agc"
)

// ValidatorJob is the external_id agc-action gives a check run of the
// validator (agc/agc-validate): the job that wrote it, as the workflow,
// the job and the inputs it read (the lines of agc, sarif and diff),
// hashed. A rerun of a job (a new attempt, or the workflow run again on
// the same commit) has the same id, and its run supersedes the earlier
// one; parallel jobs (one job per gate, a matrix whose legs pair
// different gates) have different ids, and none supersedes another.
// Legs of a matrix that read the very same input lines share an id: give
// each leg its own paired line (docs/many-gates.md).
func ValidatorJob(workflow, job string, inputs []string) string {
	h := sha256.New()
	for _, s := range append([]string{workflow, job}, inputs...) {
		fmt.Fprintf(h, "%d:%s\n", len(s), s)
	}
	return "agc-validate/job:" + hex.EncodeToString(h.Sum(nil))[:32]
}

// ValidationFailures returns the runs of the validator on sha that a run
// of job (a ValidatorJob id) must not hide: of the completed runs named
// name written by app (no other app is trusted: anyone with write access
// can post a check run of any name through another app), the newest of
// each other job (a run without an external id is a job of its own),
// whose own answer fails. A run's own answer is the verdict of the
// response embedded in it (conclusion maps a verdict to a conclusion;
// failing is anything but success), else, when none can be read, its
// conclusion. So a run that failed only because another job's did
// (verdict allow, conclusion failure) is no failure of its own, and a job
// rerun cleanly clears what its earlier attempt found. Newest first.
func ValidationFailures(list []CheckRun, name, sha string, app int64, job string, conclusion func(verdict string) string) []CheckRun {
	latest := map[string]*CheckRun{}
	for i := range list {
		r := &list[i]
		if !r.trusted(name, sha, app) {
			continue
		}
		key := r.ExternalID
		if key == "" {
			key = fmt.Sprintf("run %d", r.ID)
		}
		if key == job {
			continue // this job's own earlier runs: superseded
		}
		if best, ok := latest[key]; !ok || r.ID > best.ID {
			latest[key] = r
		}
	}
	var out []CheckRun
	for _, r := range latest {
		if ownConclusion(r, conclusion) != "success" {
			out = append(out, *r)
		}
	}
	slices.SortFunc(out, func(a, b CheckRun) int { return int(b.ID - a.ID) })
	return out
}

// ownConclusion is the conclusion of a validator run's own answer.
func ownConclusion(r *CheckRun, conclusion func(verdict string) string) string {
	if r.Response != nil {
		if resp, err := agc.Decode(fmt.Sprintf("check run %d", r.ID), r.Response, agc.Limits{}); err == nil {
			return conclusion(resp.Verdict)
		}
	}
	return r.Conclusion
}

// FailuresNote is agc-action's paragraph on a validator run that fails
// because other jobs' runs on the same commit do (ValidationFailures):
// which, linked, and why this one fails too.
func FailuresNote(failing []CheckRun) string {
	links := make([]string, len(failing))
	for i, r := range failing {
		links[i] = fmt.Sprintf("check run %d", r.ID)
		if r.HTMLURL != "" {
			links[i] = fmt.Sprintf("[check run %d](%s)", r.ID, r.HTMLURL)
		}
	}
	return "**Failing: another job's answers on this commit are invalid.** This run's own answers are valid, but " +
		strings.Join(links, ", ") + " of another job on this commit failed validation, and a run that passes must not hide that " +
		"from a branch rule requiring this check. Fix or rerun that job: its new run supersedes its failure (docs/many-gates.md).\n"
}
