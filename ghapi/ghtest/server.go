package ghtest

import (
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/routers"
)

// Options configure a Server. The zero value is GitHub.com.
type Options struct {
	// Prefix is the API path prefix: "" for api.github.com, "/api/v3" for
	// GitHub Enterprise Server (GraphQL is then at /api/graphql).
	Prefix string
	// SARIFMaxGzip is the largest gzipped SARIF accepted (default 10 MB).
	SARIFMaxGzip int
	// PendingPolls is how many times a SARIF upload answers "pending"
	// before it is processed (default 1).
	PendingPolls int
	// MaxPatchBytes, when > 0, is the longest patch GET /pulls/{n}/files
	// sends; a file whose patch is longer is listed without one, as GitHub
	// lists a diff too large to show.
	MaxPatchBytes int
}

// Server is the emulator. Its methods are safe for concurrent use.
type Server struct {
	t      testing.TB
	opt    Options
	srv    *httptest.Server
	router routers.Router

	mu     sync.Mutex
	tokens map[string]Identity
	counts map[string]int
	log    []string
	nextID int64
	// the state the operations read and write
	prs           map[string]*PullRequest
	checkRuns     []*CheckRun
	statuses      []*Status
	uploads       []*SARIFUpload
	sarifFail     map[string][]string // commit sha -> processing errors
	perms         map[string]permission
	issueComments map[string][]*IssueComment
	// what happens beside the answers: faults.go
	faults       map[string][]Fault // by operation id, "graphql", "" (any), "write"
	writes       int
	writeFaultAt int
	between      []between
}

// New starts an emulator that reports to t and closes with the test.
func New(t testing.TB, opt Options) *Server {
	t.Helper()
	if opt.SARIFMaxGzip == 0 {
		opt.SARIFMaxGzip = 10 << 20
	}
	if opt.PendingPolls == 0 {
		opt.PendingPolls = 1
	}
	s := &Server{
		t: t, opt: opt, tokens: defaultTokens(), counts: map[string]int{}, nextID: 1000,
		prs: map[string]*PullRequest{}, sarifFail: map[string][]string{}, perms: map[string]permission{},
		issueComments: map[string][]*IssueComment{}, faults: map[string][]Fault{},
	}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.serve(w, r, false) }))
	t.Cleanup(s.srv.Close)
	var err error
	if s.router, err = newRouter(s.srv.URL + opt.Prefix); err != nil {
		t.Fatalf("ghtest: %v", err)
	}
	return s
}

// URL is the REST API base URL with a trailing slash, as go-github wants it.
func (s *Server) URL() string { return s.srv.URL + s.opt.Prefix + "/" }

// GraphQLURL is where GraphQL is served.
func (s *Server) GraphQLURL() string {
	if s.opt.Prefix != "" {
		return s.srv.URL + "/api/graphql"
	}
	return s.srv.URL + "/graphql"
}

// PR returns the pull request repo#number, creating it empty.
func (s *Server) PR(repo string, number int) *PullRequest {
	defer s.lock()()
	return s.pr(repo, number)
}

func (s *Server) pr(repo string, number int) *PullRequest {
	key := fmt.Sprintf("%s#%d", repo, number)
	pr := s.prs[key]
	if pr == nil {
		pr = &PullRequest{Repo: repo, Number: number}
		s.prs[key] = pr
	}
	return pr
}

// SetHead pushes a new head commit with these files to the pull request.
func (s *Server) SetHead(repo string, number int, sha string, files []File) {
	defer s.lock()()
	s.pr(repo, number).setHead(sha, files)
}

// Merge merges the pull request at its head into base with the commit
// mergeSHA: it is closed, merged, and GET /commits/{mergeSHA}/pulls lists
// it, as GitHub lists the pull request a merge commit came from.
func (s *Server) Merge(repo string, number int, base, mergeSHA string) {
	defer s.lock()()
	pr := s.pr(repo, number)
	pr.Base, pr.MergeCommitSHA = base, mergeSHA
}

// Reply adds who's reply to the comment to in the pull request
// repo#number, in the same thread, as a person answering on GitHub would;
// it is listed with in_reply_to_id.
func (s *Server) Reply(repo string, number int, to int64, who Identity, body string) (int64, error) {
	defer s.lock()()
	pr := s.prs[fmt.Sprintf("%s#%d", repo, number)]
	if pr == nil {
		return 0, fmt.Errorf("no pull request %s#%d", repo, number)
	}
	parent := pr.comment(to)
	if parent == nil {
		return 0, fmt.Errorf("no comment %d in %s#%d", to, repo, number)
	}
	now, c := time.Now().UTC().Truncate(time.Second), *parent
	c.ID, c.ReviewID, c.Body, c.User, c.InReplyTo = s.newID(), s.newID(), body, who, to
	c.NodeID, c.Created, c.Updated = nodeID("PRRC", c.ID), now, now
	pr.Comments = append(pr.Comments, &c)
	if t := pr.thread(parent.ThreadID); t != nil {
		t.CommentIDs = append(t.CommentIDs, c.ID)
	}
	return c.ID, nil
}

// SetPermission makes GET /repos/{repo}/collaborators/{login}/permission
// answer permission (admin, write, read, none) and role name (admin,
// maintain, write, triage, read) for who. A login not set answers 404.
func (s *Server) SetPermission(repo string, who Identity, perm, role string) {
	defer s.lock()()
	s.perms[repo+"/"+who.Login] = permission{who, perm, role}
}

// FailSARIF makes uploads for sha fail processing with these errors.
func (s *Server) FailSARIF(sha string, errs ...string) {
	defer s.lock()()
	s.sarifFail[sha] = errs
}

// Snapshot runs f with the state locked, for assertions.
func (s *Server) Snapshot(f func(prs map[string]*PullRequest, runs []*CheckRun, statuses []*Status, uploads []*SARIFUpload)) {
	defer s.lock()()
	f(s.prs, s.checkRuns, s.statuses, s.uploads)
}

// IssueComments returns the conversation comments of repo#number, oldest
// first.
func (s *Server) IssueComments(repo string, number int) []IssueComment {
	defer s.lock()()
	var out []IssueComment
	for _, c := range s.issueComments[fmt.Sprintf("%s#%d", repo, number)] {
		out = append(out, *c)
	}
	return out
}

// RequiredCheck returns the check run a branch rule requiring the check
// name reads on sha: the newest run of that name (the one created last),
// of the app the rule expects when app is not 0, of any app otherwise;
// nil when there is none. GitHub shows and requires the latest run of a
// name per commit; an earlier run of the same name, whatever its
// conclusion, no longer decides.
func (s *Server) RequiredCheck(repo, sha, name string, app int64) *CheckRun {
	defer s.lock()()
	var best *CheckRun
	for _, r := range s.checkRuns {
		if r.Repo == repo && r.HeadSHA == sha && r.Name == name && (app == 0 || r.App.AppID == app) && (best == nil || r.ID > best.ID) {
			best = r
		}
	}
	if best == nil {
		return nil
	}
	c := *best
	return &c
}

// Counts returns requests per operation id ("graphql/<name>" for GraphQL).
func (s *Server) Counts() map[string]int {
	defer s.lock()()
	return maps.Clone(s.counts)
}

// ResetCounts sets every count back to zero.
func (s *Server) ResetCounts() {
	defer s.lock()()
	s.counts = map[string]int{}
}

// Log returns "METHOD PATH -> STATUS" for every request so far.
func (s *Server) Log() []string {
	defer s.lock()()
	return append([]string(nil), s.log...)
}

// Writes is how many writes the emulator was sent, refused ones included.
func (s *Server) Writes() int {
	defer s.lock()()
	return s.writes
}

// lock locks the state and returns its unlock: defer s.lock()().
func (s *Server) lock() func() {
	s.mu.Lock()
	return s.mu.Unlock
}

func (s *Server) newID() int64 {
	s.nextID++
	return s.nextID
}
