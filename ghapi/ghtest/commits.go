package ghtest

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"time"
)

// listCommits answers GET /pulls/{n}/commits: the heads pushed to the pull
// request, oldest first, each as a commit whose parent is the one before
// (the emulator keeps no trees, so each push stands for one commit).
func listCommits(s *Server, w http.ResponseWriter, q *request) {
	pr := s.prOf(w, q)
	if pr == nil {
		return
	}
	commits := pr.Commits[max(len(pr.Commits)-250, 0):] // GitHub lists at most 250
	out := []map[string]any{}
	for _, sha := range page(w, q.r, commits) {
		out = append(out, commitJSON(pr, sha, q.now))
	}
	writeJSON(w, http.StatusOK, out)
}

func commitJSON(pr *PullRequest, sha string, now time.Time) map[string]any {
	api := fmt.Sprintf("https://api.github.com/repos/%s/commits/%s", pr.Repo, sha)
	parents := []any{}
	for i, c := range pr.Commits {
		if c == sha && i > 0 {
			p := pr.Commits[i-1]
			parents = append(parents, map[string]any{"sha": p, "url": fmt.Sprintf("https://api.github.com/repos/%s/commits/%s", pr.Repo, p)})
		}
	}
	person := map[string]any{"name": "Test", "email": "test@example.invalid", "date": now.Format(time.RFC3339)}
	return map[string]any{
		"url": api, "sha": sha, "node_id": "C_" + sha, "html_url": fmt.Sprintf("https://github.com/%s/commit/%s", pr.Repo, sha),
		"comments_url": api + "/comments", "author": nil, "committer": nil, "parents": parents,
		"commit": map[string]any{
			"url": fmt.Sprintf("https://api.github.com/repos/%s/git/commits/%s", pr.Repo, sha), "author": person, "committer": person,
			"message": "push " + sha[:min(len(sha), 7)], "comment_count": 0,
			"tree": map[string]any{"sha": sha, "url": fmt.Sprintf("https://api.github.com/repos/%s/git/trees/%s", pr.Repo, sha)},
		},
	}
}

//go:embed openapi/examples.json
var examplesJSON []byte

// Merge merges the pull request at its head into base with the commit
// mergeSHA: it is closed, merged, and GET /commits/{mergeSHA}/pulls lists
// it, as GitHub lists the pull request a merge commit came from.
func (s *Server) Merge(repo string, number int, base, mergeSHA string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	pr := s.pr(repo, number)
	pr.Base, pr.MergeCommitSHA = base, mergeSHA
}

// listCommitPulls answers GET /commits/{sha}/pulls: the pull requests of
// the repository whose commits hold sha, or that were merged by it.
func listCommitPulls(s *Server, w http.ResponseWriter, q *request) {
	sha := q.params["commit_sha"]
	var match []*PullRequest
	for _, pr := range s.prs {
		if pr.Repo == repoOf(q) && (pr.MergeCommitSHA == sha || slices.Contains(pr.Commits, sha)) {
			match = append(match, pr)
		}
	}
	slices.SortFunc(match, func(a, b *PullRequest) int { return b.Number - a.Number })
	out := []map[string]any{}
	for _, pr := range page(w, q.r, match) {
		out = append(out, pr.simpleJSON(q.now))
	}
	writeJSON(w, http.StatusOK, out)
}

// simpleJSON is the pull request as GitHub lists it (pull-request-simple):
// GitHub's own example with this pull request's number, state, head and
// base put in, and no reviewers requested (the example's team lacks the
// "type" the description now requires).
func (pr *PullRequest) simpleJSON(now time.Time) map[string]any {
	var ex struct {
		Items []map[string]any `json:"pull-request-simple-items"`
	}
	if err := json.Unmarshal(examplesJSON, &ex); err != nil || len(ex.Items) == 0 {
		panic(fmt.Sprintf("ghtest: openapi/examples.json: %v", err))
	}
	m := ex.Items[0]
	api := fmt.Sprintf("https://api.github.com/repos/%s/pulls/%d", pr.Repo, pr.Number)
	m["url"], m["number"], m["id"], m["node_id"] = api, pr.Number, 1000+pr.Number, fmt.Sprintf("PR_%d", pr.Number)
	m["html_url"] = fmt.Sprintf("https://github.com/%s/pull/%d", pr.Repo, pr.Number)
	m["state"], m["merged_at"], m["closed_at"], m["merge_commit_sha"] = "open", nil, nil, nil
	m["requested_teams"], m["requested_reviewers"] = []any{}, []any{}
	if pr.MergeCommitSHA != "" {
		at := now.Format(time.RFC3339)
		m["state"], m["merged_at"], m["closed_at"], m["merge_commit_sha"] = "closed", at, at, pr.MergeCommitSHA
	}
	base := pr.Base
	if base == "" {
		base = "main"
	}
	head, _ := m["head"].(map[string]any)
	head["sha"] = pr.HeadSHA
	b, _ := m["base"].(map[string]any)
	b["ref"], b["label"] = base, "octocat:"+base
	return m
}
