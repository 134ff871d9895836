// Package subject computes AGC subject fingerprints (§5): a SHA-256 over
// exactly the content a gate judged, so that a verdict stays valid while
// that content is unchanged and dies when it changes. A commit's tree is
// fingerprinted over a scope (Compute), a tool call over JSON pointers
// (ToolCall), an artifact over its bytes (Artifact).
//
// docs/fingerprint.md is the specification; this package implements it:
// scope matching, listing a commit's tree from its tree objects (Walk),
// the symlink closure, the byte encoding and hashing, and the diff of two
// selections (Diff). It does no I/O of its own: it reads a repository
// through the Repo it is given, which package fingerprint implements with
// git.
package subject
