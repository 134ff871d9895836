package ghtest

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

func repoOf(q *request) string { return q.params["owner"] + "/" + q.params["repo"] }

// prOf returns the pull request of the request, or answers 404.
func (s *Server) prOf(w http.ResponseWriter, q *request) *PullRequest {
	n, _ := strconv.Atoi(q.params["pull_number"])
	pr := s.prs[fmt.Sprintf("%s#%d", repoOf(q), n)]
	if pr == nil {
		writeError(w, http.StatusNotFound, "Not Found")
	}
	return pr
}

func listFiles(s *Server, w http.ResponseWriter, q *request) {
	pr := s.prOf(w, q)
	if pr == nil {
		return
	}
	var out []map[string]any
	for _, f := range page(w, q.r, pr.listedFiles()) {
		blob := fmt.Sprintf("https://github.com/%s/blob/%s/%s", pr.Repo, pr.HeadSHA, f.Path)
		e := map[string]any{
			"sha": "bbcd538c8e72b8c175046e27cc8f907076331401", "filename": f.Path, "status": f.status,
			"additions": f.additions, "deletions": f.deletions, "changes": f.additions + f.deletions,
			"blob_url": blob, "raw_url": strings.Replace(blob, "/blob/", "/raw/", 1),
			"contents_url": fmt.Sprintf("https://api.github.com/repos/%s/contents/%s?ref=%s", pr.Repo, f.Path, pr.HeadSHA),
		}
		if f.Previous != "" {
			e["previous_filename"] = f.Previous
		}
		if f.patch != "" && !f.Binary && (s.opt.MaxPatchBytes <= 0 || len(f.patch) <= s.opt.MaxPatchBytes) {
			e["patch"] = f.patch
		}
		out = append(out, e)
	}
	writeJSON(w, http.StatusOK, nonNil(out))
}

func nonNil[T any](v []T) []T {
	if v == nil {
		return []T{}
	}
	return v
}

func (c *Comment) json(pr *PullRequest) map[string]any {
	api := fmt.Sprintf("https://api.github.com/repos/%s/pulls/comments/%d", pr.Repo, c.ID)
	html := fmt.Sprintf("https://github.com/%s/pull/%d#discussion_r%d", pr.Repo, pr.Number, c.ID)
	prURL := fmt.Sprintf("https://api.github.com/repos/%s/pulls/%d", pr.Repo, pr.Number)
	m := map[string]any{
		"url": api, "id": c.ID, "node_id": c.NodeID, "pull_request_review_id": c.ReviewID,
		"path": c.Path, "body": c.Body, "user": c.User.userJSON(), "commit_id": c.CommitID,
		"original_commit_id": c.CommitID, "subject_type": c.SubjectType,
		"created_at": c.Created.Format(time.RFC3339), "updated_at": c.Updated.Format(time.RFC3339),
		"author_association": "NONE", "diff_hunk": "", "html_url": html, "pull_request_url": prURL,
		"_links": map[string]any{"self": map[string]any{"href": api}, "html": map[string]any{"href": html},
			"pull_request": map[string]any{"href": prURL}},
	}
	if c.SubjectType == "line" {
		m["side"], m["original_line"] = c.Side, c.OriginalLine
		// GitHub answers "line": null for an outdated comment, which its
		// description does not allow ("type": "integer"); leaving the
		// member out reads the same (no line) and matches it.
		if c.Line > 0 {
			m["line"] = c.Line
		}
		if c.StartLine > 0 {
			m["start_line"], m["start_side"] = c.StartLine, c.StartSide
		}
	}
	return m
}

func nullIfZero(n int) any {
	if n == 0 {
		return nil
	}
	return n
}

func listComments(s *Server, w http.ResponseWriter, q *request) {
	pr := s.prOf(w, q)
	if pr == nil {
		return
	}
	var out []map[string]any
	for _, c := range page(w, q.r, pr.Comments) {
		out = append(out, c.json(pr))
	}
	writeJSON(w, http.StatusOK, nonNil(out))
}

// draft is a comment as clients send it, in a review or alone.
type draft struct {
	Path        string `json:"path"`
	Body        string `json:"body"`
	Line        int    `json:"line"`
	Side        string `json:"side"`
	StartLine   int    `json:"start_line"`
	StartSide   string `json:"start_side"`
	Position    int    `json:"position"`
	CommitID    string `json:"commit_id"`
	SubjectType string `json:"subject_type"`
	InReplyTo   int64  `json:"in_reply_to"`
}

// check returns GitHub's complaint about d, or "".
func (pr *PullRequest) check(d draft) string {
	f := pr.file(d.Path)
	switch {
	case f == nil:
		return "Path could not be resolved"
	case len(d.Body) > 65536:
		return "Body is too long (maximum is 65536 characters)"
	case d.SubjectType == "file":
		return ""
	case d.Position > 0:
		return "the emulator does not accept legacy position comments; use line and side"
	case d.Line == 0:
		return "Line could not be resolved"
	}
	side := d.Side
	if side == "" {
		side = "RIGHT"
	}
	return f.checkLine(side, d.Line, d.StartSide, d.StartLine)
}

func (s *Server) addComment(pr *PullRequest, d draft, who Identity, reviewID int64, now time.Time) *Comment {
	id := s.newID()
	c := &Comment{
		ID: id, NodeID: nodeID("PRRC", id), ReviewID: reviewID, Path: d.Path, Body: d.Body,
		User: who, CommitID: pr.HeadSHA, SubjectType: "line", Created: now, Updated: now,
	}
	if d.SubjectType == "file" {
		c.SubjectType = "file"
	} else {
		c.Side, c.Line, c.OriginalLine = orDefault(d.Side, "RIGHT"), d.Line, d.Line
		if d.StartLine > 0 {
			c.StartLine, c.StartSide = d.StartLine, orDefault(d.StartSide, c.Side)
		}
	}
	t := &Thread{ID: nodeID("PRRT", id), CommentIDs: []int64{id}}
	c.ThreadID = t.ID
	pr.Comments = append(pr.Comments, c)
	pr.Threads = append(pr.Threads, t)
	return c
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func createComment(s *Server, w http.ResponseWriter, q *request) {
	pr := s.prOf(w, q)
	if pr == nil {
		return
	}
	var d draft
	if err := q.decode(&d); err != nil {
		writeError(w, http.StatusBadRequest, "Problems parsing JSON")
		return
	}
	if d.CommitID != "" && d.CommitID != pr.HeadSHA {
		writeError(w, http.StatusUnprocessableEntity, "Validation Failed", "commit_id is not part of the pull request")
		return
	}
	if msg := pr.check(d); msg != "" {
		writeError(w, http.StatusUnprocessableEntity, "Validation Failed", msg)
		return
	}
	c := s.addComment(pr, d, q.who, s.newID(), q.now)
	writeJSON(w, http.StatusCreated, c.json(pr))
}

func updateComment(s *Server, w http.ResponseWriter, q *request) {
	id, _ := strconv.ParseInt(q.params["comment_id"], 10, 64)
	for _, pr := range s.prs {
		c := pr.comment(id)
		if pr.Repo != repoOf(q) || c == nil {
			continue
		}
		body, ok := ownBody(w, q, c.User.Login)
		if !ok {
			return
		}
		c.Body, c.Updated = body, q.now
		writeJSON(w, http.StatusOK, c.json(pr))
		return
	}
	writeError(w, http.StatusNotFound, "Not Found")
}

// ownBody reads the body of an edit to something the requester wrote;
// it answers 403 for another author's and 400 for bad JSON.
func ownBody(w http.ResponseWriter, q *request, author string) (string, bool) {
	if author != q.who.Login {
		writeError(w, http.StatusForbidden, "Resource not accessible by integration")
		return "", false
	}
	var d struct {
		Body string `json:"body"`
	}
	if err := q.decode(&d); err != nil {
		writeError(w, http.StatusBadRequest, "Problems parsing JSON")
		return "", false
	}
	return d.Body, true
}
