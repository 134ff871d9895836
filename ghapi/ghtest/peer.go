package ghtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// PeerFront is a second address of the emulator for a peer tool (such as
// reviewdog) in tests that compare it with ghapi on the same pull request.
// A peer uses a few GitHub operations ghapi never does, which are therefore
// not in the validated subset. The front serves those from the emulator's
// state, checked by hand rather than against the description:
//
//   - GET /repos/{owner}/{repo} (repos/get),
//   - GET /repos/{owner}/{repo}/pulls/{pull_number} with the diff media type
//     (pulls/get; the diff is built from the files' patches),
//   - DELETE /repos/{owner}/{repo}/pulls/comments/{comment_id}
//     (pulls/delete-review-comment; only the comment's author may).
//
// Every other request goes to the emulator unchanged, with its full
// validation. Replies added with Reply are listed with in_reply_to_id
// through the front. ghapi's own tests never need a front, so the subset
// still fails them on any operation ghapi does not use.
type PeerFront struct {
	s   *Server
	srv *httptest.Server

	mu      sync.Mutex
	replies map[int64]int64 // reply comment id -> the comment it answers
}

// NewPeerFront starts a front on loopback that closes with the test.
func (s *Server) NewPeerFront(t testing.TB) *PeerFront {
	t.Helper()
	p := &PeerFront{s: s, replies: map[int64]int64{}}
	p.srv = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(p.srv.Close)
	return p
}

// URL is the front's REST API base URL with a trailing slash.
func (p *PeerFront) URL() string { return p.srv.URL + p.s.opt.Prefix + "/" }

var (
	peerRepoPath    = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)$`)
	peerPullPath    = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/pulls/([0-9]+)$`)
	peerCommentPath = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/pulls/comments/([0-9]+)$`)
	peerListPath    = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/pulls/([0-9]+)/comments$`)
)

func (p *PeerFront) serve(w http.ResponseWriter, r *http.Request) {
	path, ok := strings.CutPrefix(r.URL.Path, p.s.opt.Prefix)
	if !ok {
		p.pass(w, r)
		return
	}
	rec := &statusRecorder{ResponseWriter: w}
	var m []string
	var op string
	var h func(w http.ResponseWriter, r *http.Request, m []string, who Identity)
	switch {
	case r.Method == http.MethodGet && peerListPath.MatchString(path) && p.hasReplies():
		p.listWithReplies(w, r)
		return
	case r.Method == http.MethodGet && peerRepoPath.MatchString(path):
		m, op, h = peerRepoPath.FindStringSubmatch(path), "repos/get", p.getRepo
	case r.Method == http.MethodGet && peerPullPath.MatchString(path):
		m, op, h = peerPullPath.FindStringSubmatch(path), "pulls/get", p.getDiff
	case r.Method == http.MethodDelete && peerCommentPath.MatchString(path):
		m, op, h = peerCommentPath.FindStringSubmatch(path), "pulls/delete-review-comment", p.deleteComment
	default:
		p.pass(w, r)
		return
	}
	defer func() {
		p.s.mu.Lock()
		p.s.log = append(p.s.log, fmt.Sprintf("%s %s -> %d", r.Method, r.URL.RequestURI(), rec.status))
		p.s.mu.Unlock()
	}()
	p.s.mu.Lock()
	defer p.s.mu.Unlock()
	p.s.counts[op]++
	who, ok := p.s.tokens[token(r)]
	if !ok {
		writeError(rec, http.StatusUnauthorized, "Bad credentials")
		return
	}
	if f, ok := p.s.takeFault(op); ok {
		writeFault(rec, f, time.Now())
		return
	}
	h(rec, r, m, who)
}

// pass hands r to the emulator as if sent to its own address, which its
// router matches requests against.
func (p *PeerFront) pass(w http.ResponseWriter, r *http.Request) {
	r2 := r.Clone(r.Context())
	r2.Host = p.s.srv.Listener.Addr().String()
	r2.URL.Host = r2.Host
	p.s.serve(w, r2)
}

func (p *PeerFront) getRepo(w http.ResponseWriter, r *http.Request, m []string, _ Identity) {
	full := m[1] + "/" + m[2]
	writeJSON(w, http.StatusOK, map[string]any{
		"id": 1296269, "node_id": "R_1296269", "name": m[2], "full_name": full, "private": false,
		"owner":    map[string]any{"login": m[1]},
		"html_url": "https://github.com/" + full, "url": "https://api.github.com/repos/" + full,
		"default_branch": "main",
	})
}

// getDiff answers pulls/get with the diff media type: the pull request's
// files as git writes them, each with its patch.
func (p *PeerFront) getDiff(w http.ResponseWriter, r *http.Request, m []string, _ Identity) {
	if !strings.Contains(r.Header.Get("Accept"), "diff") {
		p.s.t.Errorf("ghtest: the peer front serves pulls/get only as a diff; Accept was %q", r.Header.Get("Accept"))
		writeError(w, http.StatusUnsupportedMediaType, "the emulator serves pull requests only as diffs")
		return
	}
	pr := p.s.prs[m[1]+"/"+m[2]+"#"+m[3]]
	if pr == nil {
		writeError(w, http.StatusNotFound, "Not Found")
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, pr.diff())
}

// diff is the pull request as `git diff` writes it.
func (pr *PullRequest) diff() string {
	var b strings.Builder
	for _, f := range pr.files {
		if f.patch == "" {
			continue
		}
		oldName, newName := "a/"+f.Path, "b/"+f.Path
		fmt.Fprintf(&b, "diff --git a/%s b/%s\n", f.Path, f.Path)
		switch f.status {
		case "added":
			b.WriteString("new file mode 100644\n")
			oldName = "/dev/null"
		case "removed":
			b.WriteString("deleted file mode 100644\n")
			newName = "/dev/null"
		}
		fmt.Fprintf(&b, "--- %s\n+++ %s\n%s\n", oldName, newName, f.patch)
	}
	return b.String()
}

func (p *PeerFront) deleteComment(w http.ResponseWriter, r *http.Request, m []string, who Identity) {
	id, _ := strconv.ParseInt(m[3], 10, 64)
	repo := m[1] + "/" + m[2]
	for _, pr := range p.s.prs {
		c := pr.comment(id)
		if pr.Repo != repo || c == nil {
			continue
		}
		if c.User.Login != who.Login || who.ReadOnly {
			writeError(w, http.StatusForbidden, "Resource not accessible by integration")
			return
		}
		pr.deleteComment(c)
		w.WriteHeader(http.StatusNoContent)
		return
	}
	writeError(w, http.StatusNotFound, "Not Found")
}

// deleteComment removes c, and its thread when c was the thread's last.
func (pr *PullRequest) deleteComment(c *Comment) {
	keep := pr.Comments[:0]
	for _, x := range pr.Comments {
		if x != c {
			keep = append(keep, x)
		}
	}
	pr.Comments = keep
	t := pr.thread(c.ThreadID)
	if t == nil {
		return
	}
	ids := t.CommentIDs[:0]
	for _, id := range t.CommentIDs {
		if id != c.ID {
			ids = append(ids, id)
		}
	}
	t.CommentIDs = ids
	if len(ids) > 0 {
		return
	}
	threads := pr.Threads[:0]
	for _, x := range pr.Threads {
		if x != t {
			threads = append(threads, x)
		}
	}
	pr.Threads = threads
}

// Reply adds who's reply to comment to in the pull request repo#number, in
// the same thread, as a person answering on GitHub would.
func (p *PeerFront) Reply(repo string, number int, to int64, who Identity, body string) (int64, error) {
	s := p.s
	s.mu.Lock()
	defer s.mu.Unlock()
	pr := s.prs[fmt.Sprintf("%s#%d", repo, number)]
	if pr == nil {
		return 0, fmt.Errorf("no pull request %s#%d", repo, number)
	}
	parent := pr.comment(to)
	if parent == nil {
		return 0, fmt.Errorf("no comment %d in %s#%d", to, repo, number)
	}
	now := time.Now()
	id := s.newID()
	c := *parent
	c.ID, c.NodeID, c.Body, c.User, c.Created, c.Updated = id, nodeID("PRRC", id), body, who, now, now
	c.ReviewID = s.newID()
	pr.Comments = append(pr.Comments, &c)
	if t := pr.thread(parent.ThreadID); t != nil {
		t.CommentIDs = append(t.CommentIDs, id)
	}
	p.mu.Lock()
	p.replies[id] = to
	p.mu.Unlock()
	return id, nil
}

func (p *PeerFront) hasReplies() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.replies) > 0
}

// listWithReplies serves pulls/list-review-comments through the emulator
// and adds in_reply_to_id to the replies.
func (p *PeerFront) listWithReplies(w http.ResponseWriter, r *http.Request) {
	rec := httptest.NewRecorder()
	p.pass(rec, r)
	res := rec.Result()
	body := rec.Body.Bytes()
	if res.StatusCode == http.StatusOK {
		var cs []map[string]any
		if err := json.Unmarshal(body, &cs); err == nil {
			p.mu.Lock()
			for _, c := range cs {
				id, _ := c["id"].(float64)
				if to, ok := p.replies[int64(id)]; ok {
					c["in_reply_to_id"] = to
				}
			}
			p.mu.Unlock()
			body, _ = json.Marshal(cs)
		}
	}
	for k, v := range res.Header {
		if k != "Content-Length" {
			w.Header()[k] = v
		}
	}
	w.WriteHeader(res.StatusCode)
	w.Write(body)
}
