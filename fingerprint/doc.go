// Package fingerprint is the git plumbing of the subject fingerprints
// (package subject): Git reads a repository through the git CLI, one
// long-lived `git cat-file --batch` process resolving revisions and
// reading trees (Git.Walk, for subject.Compute), blobs and commit objects
// (Git.Parents), so a shallow clone is enough; it also fetches a commit by
// its id (FetchCommit) and reads the diffs of a pull request's files
// (Diffs). It runs git; what is computed from what git gives is package
// subject's, and carrying a verdict is package carry's.
package fingerprint
