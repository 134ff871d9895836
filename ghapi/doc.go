// Package ghapi delivers AGC responses to GitHub on
// github.com/google/go-github/v62: a code scanning upload, one batched pull
// request review per gate with inline comments and ```suggestion blocks, a
// check run per gate that a branch rule can require, and an optional commit
// status. It reads a pull request's files, comments, reviews and threads
// (LoadPR, REST and GraphQL), posts and edits what package review planned
// from them, within the ceiling on what one run writes, and resolves the
// threads of findings that are gone, so reruns are idempotent. Requests are retried on 5xx and rate limits with bounded
// backoff; a read-only token degrades to workflow annotations and the job
// summary (review.Degrade). DryRun prints writes instead of sending them.
//
// docs/github.md describes the channels, placement and markers. Client
// does the network, through an *http.Client it is given; what the review,
// check runs and statuses say is package review's, which does no I/O.
package ghapi
