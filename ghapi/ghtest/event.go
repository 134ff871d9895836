package ghtest

import (
	"encoding/json"
	"fmt"
	"os"
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
	var p struct {
		Repository struct {
			FullName string `json:"full_name"`
		} `json:"repository"`
		PullRequest *struct {
			Number int `json:"number"`
			Head   struct {
				SHA string `json:"sha"`
			} `json:"head"`
		} `json:"pull_request"`
	}
	if err := json.Unmarshal(data, &p); err != nil {
		return Event{}, fmt.Errorf("%s: %w", path, err)
	}
	if p.PullRequest == nil {
		return Event{}, fmt.Errorf("%s: not a pull_request event", path)
	}
	ev := Event{Repo: p.Repository.FullName, Number: p.PullRequest.Number, HeadSHA: p.PullRequest.Head.SHA}
	s.SetHead(ev.Repo, ev.Number, ev.HeadSHA, files)
	return ev, nil
}
