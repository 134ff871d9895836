// Package deliver is the delivery pipeline: a run's answers read → planned
// → the head guarded → posted → threads resolved, over small interfaces
// (ports) to GitHub that ghapi.Client implements and tests fake. It reads
// the pull request (PullRequest), plans every gate's review within one
// run's ceiling (package review), re-reads the head before each write so
// an older run never writes after a newer one, posts each gate's check run
// and status (Checks, Statuses; agc/agc-validate so that parallel jobs
// agree) and review (Reviews), then resolves and reopens threads. A
// read-only token degrades to workflow annotations and the job summary
// (review.Degrade); the diffs GitHub does not give come from Diffs (a
// clone's: Clone).
//
// It also adapts carry's and rounds' view of GitHub to the ports
// (CarryRuns).
package deliver

import (
	"context"
	"time"

	"github.com/agcgate/agc-action/fingerprint"
	"github.com/agcgate/agc-action/ghapi"
	"github.com/google/go-github/v62/github"
)

// PullRequest reads a pull request.
type PullRequest interface {
	// Pull reads its head and base now.
	Pull(ctx context.Context, number int) (*ghapi.PullInfo, error)
	// Files lists its files with their patches.
	Files(ctx context.Context, number int) ([]*github.CommitFile, error)
	// OwnComments and OwnReviews list what Login wrote.
	OwnComments(ctx context.Context, number int) ([]*github.PullRequestComment, error)
	OwnReviews(ctx context.Context, number int) ([]*github.PullRequestReview, error)
	Threads(ctx context.Context, number int) ([]ghapi.Thread, error)
	// Login is the identity the client writes as.
	Login() string
	// Sleep waits d, or until ctx ends.
	Sleep(ctx context.Context, d time.Duration) error
}

// Reviews writes reviews and their threads.
type Reviews interface {
	EditComment(ctx context.Context, id int64, body string) error
	EditReview(ctx context.Context, number int, id int64, body string) error
	CreateReview(ctx context.Context, number int, commit, body string, comments []*github.DraftReviewComment) error
	// SetThreads reopens and resolves threads in one request.
	SetThreads(ctx context.Context, reopen, resolve []string) error
}

// Checks writes and reads check runs.
type Checks interface {
	CreateCheckRun(ctx context.Context, opt github.CreateCheckRunOptions) (int64, error)
	UpdateCheckRun(ctx context.Context, id int64, opt github.UpdateCheckRunOptions) error
	// CheckRuns lists the runs named name on sha, of every app.
	CheckRuns(ctx context.Context, sha, name string) ([]*github.CheckRun, error)
}

// Statuses writes commit statuses.
type Statuses interface {
	CreateStatus(ctx context.Context, sha string, st *github.RepoStatus) error
}

// GitHub is every port a delivery writes through.
type GitHub interface {
	PullRequest
	Reviews
	Checks
	Statuses
}

var _ GitHub = (*ghapi.Client)(nil)

// Diffs reads the diffs GitHub does not give (fingerprint.Git.Diffs's
// form): of paths between base's merge base with head and head; a path
// not changed is absent.
type Diffs interface {
	Diffs(ctx context.Context, base, head string, paths []string) (map[string]fingerprint.PathDiff, error)
}
