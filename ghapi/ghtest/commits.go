package ghtest

import (
	"fmt"
	"net/http"
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
