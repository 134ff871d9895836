// Package fingerprint computes scoped subject fingerprints (AGC §5): a
// SHA-256 over exactly the content a gate judged, so that a verdict stays
// valid while that content is unchanged and dies when it changes.
//
// docs/fingerprint.md is the specification; this package implements it.
// The pure part (scope matching, the symlink closure, the byte encoding,
// hashing, diffs) works on lists of tree entries and has no I/O. The git
// part (git.go) lists a commit's tree and reads blobs and commit objects
// (Git.Parents) through the git CLI, behind the Repo interface, so a
// shallow clone is enough. Carrying a verdict is package carry's.
package fingerprint
