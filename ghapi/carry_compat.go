package ghapi

import (
	"github.com/agcgate/agc-action/review"
	"github.com/google/go-github/v62/github"
)

// carry.go still names these as ghapi's own; they are package review's
// now. They stay only until carrying moves into its own package (issue 10,
// part 2) and its adapter names review directly: use package review.

// MaxCheckText is review.MaxCheckText.
const MaxCheckText = review.MaxCheckText

// ErrNotEmbedded is review.ErrNotEmbedded (the same value).
var ErrNotEmbedded = review.ErrNotEmbedded

// Conclusion is review.Conclusion.
func Conclusion(verdict string) string { return review.Conclusion(verdict) }

// EmbedResponse is review.EmbedResponse.
func EmbedResponse(raw []byte) string { return review.EmbedResponse(raw) }

// ReadBackRaw is review.ReadBackRaw.
func ReadBackRaw(run *github.CheckRun) ([]byte, error) { return review.ReadBackRaw(run) }

func cutRunes(s string, n int) string { return review.CutRunes(s, n) }
