package ghtest

import (
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// IssueComment is a comment on a pull request's conversation (the issues
// API), as the emulator stores it.
type IssueComment struct {
	ID      int64
	Repo    string
	Number  int
	Body    string
	User    Identity
	Created time.Time
}

type permission struct {
	who              Identity
	permission, role string
}

// SetPermission makes GET /repos/{repo}/collaborators/{login}/permission
// answer permission (admin, write, read, none) and role name (admin,
// maintain, write, triage, read) for who. A login not set answers 404.
func (s *Server) SetPermission(repo string, who Identity, perm, role string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.perms == nil {
		s.perms = map[string]permission{}
	}
	s.perms[repo+"/"+who.Login] = permission{who, perm, role}
}

// IssueComments returns the conversation comments of repo#number, oldest
// first.
func (s *Server) IssueComments(repo string, number int) []IssueComment {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []IssueComment
	for _, c := range s.issueComments[fmt.Sprintf("%s#%d", repo, number)] {
		out = append(out, *c)
	}
	return out
}

func getPermission(s *Server, w http.ResponseWriter, q *request) {
	p, ok := s.perms[repoOf(q)+"/"+q.params["username"]]
	if !ok {
		writeError(w, http.StatusNotFound, "Not Found")
		return
	}
	user := p.who.userJSON()
	user["role_name"] = p.role
	writeJSON(w, http.StatusOK, map[string]any{"permission": p.permission, "role_name": p.role, "user": user})
}

func issueKey(q *request) (string, int) {
	n, _ := strconv.Atoi(q.params["issue_number"])
	return fmt.Sprintf("%s#%d", repoOf(q), n), n
}

func listIssueComments(s *Server, w http.ResponseWriter, q *request) {
	key, _ := issueKey(q)
	out := []map[string]any{}
	for _, c := range page(w, q.r, s.issueComments[key]) {
		out = append(out, c.json())
	}
	writeJSON(w, http.StatusOK, out)
}

func createIssueComment(s *Server, w http.ResponseWriter, q *request) {
	var body struct {
		Body string `json:"body"`
	}
	if err := q.decode(&body); err != nil {
		writeError(w, http.StatusBadRequest, "Problems parsing JSON")
		return
	}
	if len([]rune(body.Body)) > 65536 {
		writeError(w, http.StatusUnprocessableEntity, "Validation Failed", map[string]any{"resource": "IssueComment", "code": "custom", "field": "body", "message": "body is too long (maximum is 65536 characters)"})
		return
	}
	key, n := issueKey(q)
	if s.issueComments == nil {
		s.issueComments = map[string][]*IssueComment{}
	}
	c := &IssueComment{ID: s.newID(), Repo: repoOf(q), Number: n, Body: body.Body, User: q.who, Created: q.now}
	s.issueComments[key] = append(s.issueComments[key], c)
	writeJSON(w, http.StatusCreated, c.json())
}

func (c *IssueComment) json() map[string]any {
	at := c.Created.UTC().Format(time.RFC3339)
	return map[string]any{
		"id": c.ID, "node_id": nodeID("IC", c.ID), "body": c.Body, "user": c.User.userJSON(),
		"url":        fmt.Sprintf("https://api.github.com/repos/%s/issues/comments/%d", c.Repo, c.ID),
		"html_url":   fmt.Sprintf("https://github.com/%s/pull/%d#issuecomment-%d", c.Repo, c.Number, c.ID),
		"issue_url":  fmt.Sprintf("https://api.github.com/repos/%s/issues/%d", c.Repo, c.Number),
		"created_at": at, "updated_at": at, "author_association": "NONE",
	}
}
