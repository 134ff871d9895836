package review

// The ceiling on what one run writes to GitHub, whatever the number of
// findings and files (docs/github.md, "The ceiling"). A judged party
// decides how many findings there are; it must not decide how many
// requests, comments and notifications a run makes. What does not fit is
// listed in the review body and then in the check run (PlanCheck), or
// counted there with where it is, and is in the SARIF file: never dropped.
const (
	// MaxInlinePerGate is the most inline comments a gate has on the pull
	// request after a run (earlier ones it keeps count too), all new ones
	// in its one review: a review notifies once, however many comments it
	// carries, but a page with hundreds of comments is slow to read.
	MaxInlinePerGate = 50
	// MaxInlinePerRun bounds the inline comments of all gates together.
	MaxInlinePerRun = 200
	// MaxAnnotationsPerGate is how many annotations a check run gets:
	// the 50 GitHub takes in the request that creates it, no more
	// requests.
	MaxAnnotationsPerGate = 50
	// MaxReviewsPerRun bounds the reviews of one run; each gate has at
	// most one (a new one, or its body edited), so at most one new
	// notification.
	MaxReviewsPerRun = 20
	// MaxEditsPerGate and MaxEditsPerRun bound the earlier comments a
	// rerun edits because their finding's text changed; the rest are
	// edited by later runs.
	MaxEditsPerGate = 5
	MaxEditsPerRun  = 10
	// ThreadsPerRequest threads are resolved or reopened per GraphQL
	// request, in at most MaxThreadRequestsPerRun requests a run.
	ThreadsPerRequest       = 50
	MaxThreadRequestsPerRun = 2
)

// Budget is what is left of one run's ceiling; gates are planned in
// order and each takes from it.
type Budget struct {
	Reviews int // reviews created or edited
	Inline  int // inline comments, earlier ones kept and new ones
	Edits   int // earlier comments edited
	Threads int // threads resolved or reopened
}

// NewBudget is the whole ceiling of one run.
func NewBudget() *Budget {
	return &Budget{Reviews: MaxReviewsPerRun, Inline: MaxInlinePerRun, Edits: MaxEditsPerRun,
		Threads: MaxThreadRequestsPerRun * ThreadsPerRequest}
}

// WriteCeiling is the most requests that write (REST POST and PATCH,
// GraphQL mutations) one delivery makes for gates gates: a check run per
// gate (its annotations in the same request), a status per gate when
// statuses are posted, a review per gate up to MaxReviewsPerRun, the edits
// and the thread requests. A code scanning upload adds one.
func WriteCeiling(gates int, statuses bool) int {
	n := gates + min(gates, MaxReviewsPerRun) + min(gates*MaxEditsPerGate, MaxEditsPerRun) + MaxThreadRequestsPerRun
	if statuses {
		n += gates
	}
	return n
}
