// Package carry owns carrying a gate's verdict to a new commit whose
// scoped content is unchanged (docs/fingerprint.md, "Carrying a verdict"
// and "Carrying on GitHub"):
//
//   - the binding record (Binding, Bind, EmbedBinding, ReadBinding): what
//     agc-action bound a gate's answer to, the scoped fingerprint of the
//     commit reported on over the scope the workflow defines (Workflow),
//     kept apart from the answer at the start of the check run's text;
//   - the members agc-action writes into a response, under OwnPrefix: the
//     carry record agc-action/carried-from (Record, Forward); on the
//     GitHub paths they are agc-action's alone, and Strip removes those an
//     answer brings;
//   - the one decision, Decide: what a gate judged against what is there
//     now gives carried, or the list of what changed; the carry command and
//     the GitHub paths all ask it;
//   - the policy on GitHub (Gate): which earlier heads to look
//     at (the push's before, then the pull request's commits), which check
//     runs to trust (completed, by the same app, bound, whose conclusion is
//     their verdict's), when to recompute at the commit judged, and what to
//     post on the new head.
//
// It does no I/O of its own. It reaches GitHub only through the GitHub
// interface it declares, which deliver.CarryRuns implements, and gets
// fingerprints from a Fingerprinter (RepoFingerprinter computes them over
// a subject.Repo: fingerprint.Git, which runs git).
package carry
