package ghtest

import (
	"fmt"
	"net/http"
	"strconv"
	"time"
)

func (rv *Review) json(pr *PullRequest, now time.Time) map[string]any {
	return map[string]any{
		"id": rv.ID, "node_id": rv.NodeID, "user": rv.User.userJSON(), "body": rv.Body,
		"state": rv.State, "commit_id": rv.CommitID, "author_association": "NONE",
		"submitted_at":     now.Format(time.RFC3339),
		"html_url":         fmt.Sprintf("https://github.com/%s/pull/%d#pullrequestreview-%d", pr.Repo, pr.Number, rv.ID),
		"pull_request_url": fmt.Sprintf("https://api.github.com/repos/%s/pulls/%d", pr.Repo, pr.Number),
		"_links": map[string]any{
			"html":         map[string]any{"href": "https://github.com/"},
			"pull_request": map[string]any{"href": "https://api.github.com/"},
		},
	}
}

func listReviews(s *Server, w http.ResponseWriter, q *request) {
	pr := s.prOf(w, q)
	if pr == nil {
		return
	}
	var out []map[string]any
	for _, rv := range page(w, q.r, pr.Reviews) {
		out = append(out, rv.json(pr, q.now))
	}
	writeJSON(w, http.StatusOK, nonNil(out))
}

type reviewRequest struct {
	CommitID string  `json:"commit_id"`
	Body     string  `json:"body"`
	Event    string  `json:"event"`
	Comments []draft `json:"comments"`
}

var reviewStates = map[string]string{"COMMENT": "COMMENTED", "REQUEST_CHANGES": "CHANGES_REQUESTED", "APPROVE": "APPROVED", "": "PENDING"}

// createReview is all or nothing: one comment GitHub cannot place fails the
// whole review with 422, and nothing is stored.
func createReview(s *Server, w http.ResponseWriter, q *request) {
	pr := s.prOf(w, q)
	if pr == nil {
		return
	}
	var rr reviewRequest
	if err := q.decode(&rr); err != nil {
		writeError(w, http.StatusBadRequest, "Problems parsing JSON")
		return
	}
	if msg := s.reviewProblem(pr, rr, q.who); msg != "" {
		writeError(w, http.StatusUnprocessableEntity, "Unprocessable Entity", msg)
		return
	}
	rv := &Review{ID: s.newID(), Body: rr.Body, State: reviewStates[rr.Event], User: q.who, CommitID: pr.HeadSHA, Comments: len(rr.Comments)}
	rv.NodeID = nodeID("PRR", rv.ID)
	for _, d := range rr.Comments {
		s.addComment(pr, d, q.who, rv.ID, q.now)
	}
	pr.Reviews = append(pr.Reviews, rv)
	writeJSON(w, http.StatusOK, rv.json(pr, q.now))
}

func (s *Server) reviewProblem(pr *PullRequest, rr reviewRequest, who Identity) string {
	switch {
	case rr.CommitID != "" && rr.CommitID != pr.HeadSHA:
		return "commit_id is not the head of the pull request"
	case rr.Event == "APPROVE" && who.AppSlug == "github-actions":
		return "GitHub Actions is not permitted to approve pull requests."
	case (rr.Event == "COMMENT" || rr.Event == "REQUEST_CHANGES") && rr.Body == "" && len(rr.Comments) == 0:
		return "Body is required when event is " + rr.Event
	case len(rr.Body) > 65536:
		return "Body is too long (maximum is 65536 characters)"
	}
	for _, d := range rr.Comments {
		if d.SubjectType != "" {
			return "subject_type is not accepted in review comments"
		}
		if msg := pr.check(d); msg != "" {
			return msg
		}
	}
	return ""
}

func updateReview(s *Server, w http.ResponseWriter, q *request) {
	pr := s.prOf(w, q)
	if pr == nil {
		return
	}
	id, _ := strconv.ParseInt(q.params["review_id"], 10, 64)
	for _, rv := range pr.Reviews {
		if rv.ID != id {
			continue
		}
		body, ok := ownBody(w, q, rv.User.Login)
		if !ok {
			return
		}
		if len(body) > 65536 {
			writeError(w, http.StatusUnprocessableEntity, "Unprocessable Entity", "Body is too long (maximum is 65536 characters)")
			return
		}
		rv.Body = body
		writeJSON(w, http.StatusOK, rv.json(pr, q.now))
		return
	}
	writeError(w, http.StatusNotFound, "Not Found")
}
