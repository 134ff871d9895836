// Package ghapi is the GitHub implementation of the delivery pipeline's
// ports (package deliver), on github.com/google/go-github/v62: reading a
// pull request (its head, files, this identity's comments, reviews and
// GraphQL threads), posting and editing reviews, check runs, commit
// statuses, thread changes, conversation replies, and code scanning
// uploads. It plans nothing: what is written is given to it. Requests are
// retried on 5xx and rate limits within a run's budget, never answered by
// the client itself; DryRun prints writes instead of sending them.
//
// The emulator ghapi/ghtest is its contract test.
package ghapi
