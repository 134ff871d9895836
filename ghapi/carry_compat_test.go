package ghapi

import (
	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/review"
	"github.com/google/go-github/v62/github"
)

// ReadBackResponse is review.ReadBackResponse, under the name
// carry_test.go uses; see carry_compat.go.
func ReadBackResponse(run *github.CheckRun) (*agc.Response, error) {
	return review.ReadBackResponse(run)
}
