package review

import (
	"github.com/google/go-github/v62/github"
)

// PRState is what a delivery reads of a pull request before it writes:
// the files and their diffs, and this identity's comments, reviews and
// threads. The client fills it; planning only reads it.
type PRState struct {
	Number  int
	HeadSHA string
	Diffs   map[string]*FileDiff
	// Truncated is set when GitHub listed fewer files than the pull
	// request changes (it lists at most 3,000): a file not in Diffs may
	// still be in the pull request, and its hunks come from elsewhere.
	Truncated bool
	// Comments and Reviews are this client's identity's only.
	Comments []*github.PullRequestComment
	Reviews  []*github.PullRequestReview
	// Threads maps a thread's first comment id to the thread.
	Threads map[int64]Thread
}

// Thread is a review thread as GraphQL lists it.
type Thread struct {
	ID         string
	Resolved   bool
	ResolvedBy string // the login that resolved it, when resolved
	Outdated   bool
	CommentIDs []int64
}
