// Package ghapi delivers AGC responses to GitHub on
// github.com/google/go-github/v62: a code scanning upload, one batched pull
// request review per gate with inline comments and ```suggestion blocks, a
// check run per gate that a branch rule can require, and an optional commit
// status. Reruns are idempotent: every comment carries a hidden marker with
// the finding id and a content hash, so a rerun posts nothing for unchanged
// findings, edits changed ones and resolves the threads of findings that are
// gone. Requests are retried on 5xx and rate limits with bounded backoff;
// a read-only token degrades to workflow annotations and the job summary.
//
// docs/github.md describes the channels, placement and markers. The
// package's pure parts (patch parsing, placement, suggestions, markers) do
// no I/O; Client does the network, through an *http.Client it is given.
package ghapi
