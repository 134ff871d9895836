package ghtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
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

	mu        sync.Mutex
	tokens    map[string]Identity
	counts    map[string]int
	faults    map[string][]Fault
	prs       map[string]*PullRequest
	checkRuns []*CheckRun
	statuses  []*Status
	uploads   []*SARIFUpload
	sarifFail map[string][]string // commit sha -> processing errors
	nextID    int64
	log       []string
	// people and conversations: issues.go
	perms         map[string]permission
	issueComments map[string][]*IssueComment
	// big and busy pull requests: bigpr.go
	hooks        []hook
	served       int
	writes       int
	writeFaultAt int
	writeFaults  []Fault
	// another client's turn: required.go
	between []between
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
		t: t, opt: opt, tokens: defaultTokens(), counts: map[string]int{},
		faults: map[string][]Fault{}, prs: map[string]*PullRequest{},
		sarifFail: map[string][]string{}, nextID: 1000,
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	doc, err := loadDescription(s.srv.URL + opt.Prefix)
	if err != nil {
		t.Fatalf("ghtest: %v", err)
	}
	s.router, err = newRouter(doc)
	if err != nil {
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

// AddToken makes token authenticate as id.
func (s *Server) AddToken(token string, id Identity) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens[token] = id
}

// PR returns the pull request repo#number, creating it empty.
func (s *Server) PR(repo string, number int) *PullRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
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
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pr(repo, number).setHead(sha, files)
}

// Snapshot runs f with the state locked, for assertions.
func (s *Server) Snapshot(f func(prs map[string]*PullRequest, runs []*CheckRun, statuses []*Status, uploads []*SARIFUpload)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(s.prs, s.checkRuns, s.statuses, s.uploads)
}

// FailSARIF makes uploads for sha fail processing with these errors.
func (s *Server) FailSARIF(sha string, errs ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sarifFail[sha] = errs
}

// Counts returns requests per operation id ("graphql/<name>" for GraphQL).
func (s *Server) Counts() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int, len(s.counts))
	for k, v := range s.counts {
		out[k] = v
	}
	return out
}

// ResetCounts sets every count back to zero.
func (s *Server) ResetCounts() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts = map[string]int{}
}

// Log returns "METHOD PATH -> STATUS" for every request so far.
func (s *Server) Log() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.log...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		s.t.Errorf("ghtest: read body of %s %s: %v", r.Method, r.URL.Path, err)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	rec := &statusRecorder{ResponseWriter: w}
	defer func() {
		s.mu.Lock()
		s.log = append(s.log, fmt.Sprintf("%s %s -> %d", r.Method, r.URL.RequestURI(), rec.status))
		s.mu.Unlock()
	}()
	if r.URL.Path == strings.TrimSuffix(s.GraphQLURL(), "/")[len(s.srv.URL):] {
		s.serveGraphQL(rec, r, body)
		return
	}
	s.serveREST(rec, r, body)
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

// request is one validated REST request handed to an operation handler.
type request struct {
	op     string
	r      *http.Request
	body   []byte
	params map[string]string
	who    Identity
	now    time.Time
}

func (q *request) decode(v any) error { return json.Unmarshal(q.body, v) }

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// writeError answers like GitHub: {"message", "errors", "documentation_url"}.
func writeError(w http.ResponseWriter, status int, msg string, errs ...any) {
	body := map[string]any{"message": msg, "documentation_url": "https://docs.github.com/rest", "status": fmt.Sprint(status)}
	if len(errs) > 0 {
		body["errors"] = errs
	}
	writeJSON(w, status, body)
}

func (s *Server) newID() int64 {
	s.nextID++
	return s.nextID
}
