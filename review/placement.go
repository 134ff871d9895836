package review

import (
	"github.com/agcgate/agc-action/agc"
)

// FilterMode decides which findings become inline comments.
type FilterMode string

// Filter modes, as reviewdog names them. Nothing is dropped in any mode:
// a finding that is not inline goes to a file-level comment when its file
// is in the pull request, else to the review body (or, in mode file, to the
// check run only).
const (
	// FilterAdded puts inline the findings whose lines lie in one hunk and
	// include an added line.
	FilterAdded FilterMode = "added"
	// FilterDiffContext puts inline the findings whose lines lie in one
	// hunk, added or context.
	FilterDiffContext FilterMode = "diff_context"
	// FilterFile is FilterDiffContext, but findings in files the pull
	// request does not touch stay out of the review (the check run holds
	// them).
	FilterFile FilterMode = "file"
	// FilterNoFilter is FilterDiffContext; findings outside the pull
	// request's files go to the review body.
	FilterNoFilter FilterMode = "nofilter"
)

// FilterModes lists the modes, the default first.
var FilterModes = []string{string(FilterAdded), string(FilterDiffContext), string(FilterFile), string(FilterNoFilter)}

// Channel is where a finding is delivered in a pull request.
type Channel int

// Channels. Every finding lands in exactly one; all of them are also in
// the check run summary.
const (
	ChannelInline Channel = iota // a review comment on its lines
	ChannelFile                  // a file-level review comment on its file
	ChannelBody                  // the review body
	ChannelCheck                 // the check run only
)

func (c Channel) String() string {
	return [...]string{"inline", "file", "body", "check"}[c]
}

// Placed is a finding with its position and channel.
type Placed struct {
	Finding *agc.Finding
	Pos     Position
	Channel Channel
	// Suggest is set when the finding's change can be a ```suggestion.
	Suggest bool
	// Capped is set when the finding could be inline but the ceiling
	// (MaxInlinePerGate) lists it in the review body instead.
	Capped bool
}

// Place decides the channel of every finding of r. diffs holds the pull
// request's files by path.
func Place(r *agc.Response, diffs map[string]*FileDiff, head FileReader, mode FilterMode) []Placed {
	out := make([]Placed, 0, len(r.Findings))
	for i := range r.Findings {
		f := &r.Findings[i]
		p := Placed{Finding: f, Pos: Locate(f, head)}
		d, inPR := diffs[p.Pos.Path]
		switch {
		case inPR && p.Pos.Start > 0 && inlineOK(d, p.Pos, mode):
			p.Channel = ChannelInline
			p.Suggest = p.Pos.Change != nil && p.Pos.Change.Suggestable(d)
		case inPR && d.Status != "removed":
			p.Channel = ChannelFile
		case mode == FilterFile:
			p.Channel = ChannelCheck
		default:
			p.Channel = ChannelBody
		}
		out = append(out, p)
	}
	return out
}

func inlineOK(d *FileDiff, pos Position, mode FilterMode) bool {
	if !d.InOneHunk(pos.Start, pos.End) {
		return false
	}
	return mode != FilterAdded && mode != "" || d.AnyAdded(pos.Start, pos.End)
}
