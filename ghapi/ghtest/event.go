package ghtest

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/google/go-github/v62/github"
)

// Event is what the emulator reads of a pull_request webhook payload.
type Event struct {
	Repo    string // owner/name
	Number  int
	HeadSHA string
}

// SetHeadFromEvent creates the pull request a pull_request webhook payload
// (such as fixtures/webhooks/pull_request.opened.json) describes, at its
// head commit, with these files.
func (s *Server) SetHeadFromEvent(path string, files []File) (Event, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Event{}, err
	}
	var p github.PullRequestEvent
	if err := json.Unmarshal(data, &p); err != nil {
		return Event{}, fmt.Errorf("%s: %w", path, err)
	}
	if p.PullRequest == nil {
		return Event{}, fmt.Errorf("%s: not a pull_request event", path)
	}
	ev := Event{Repo: p.GetRepo().GetFullName(), Number: p.PullRequest.GetNumber(), HeadSHA: p.PullRequest.GetHead().GetSHA()}
	s.SetHead(ev.Repo, ev.Number, ev.HeadSHA, files)
	return ev, nil
}
