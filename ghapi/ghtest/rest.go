package ghtest

import (
	"bytes"
	"net/http"
	"time"
)

// bufferedWriter holds an answer until it has been checked.
type bufferedWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferedWriter) Header() http.Header         { return b.header }
func (b *bufferedWriter) Write(p []byte) (int, error) { return b.body.Write(p) }
func (b *bufferedWriter) WriteHeader(code int)        { b.status = code }

func (b *bufferedWriter) flush(w http.ResponseWriter) {
	for k, v := range b.header {
		w.Header()[k] = v
	}
	w.WriteHeader(b.status)
	w.Write(b.body.Bytes())
}

type handler func(s *Server, w http.ResponseWriter, q *request)

// handlers serve the operations of the subset, by operation id.
var handlers = map[string]handler{
	"code-scanning/upload-sarif":                      uploadSARIF,
	"code-scanning/get-sarif":                         getSARIF,
	"pulls/get":                                       getPull,
	"pulls/list-files":                                listFiles,
	"pulls/list-commits":                              listCommits,
	"pulls/list-review-comments":                      listComments,
	"pulls/create-review-comment":                     createComment,
	"pulls/update-review-comment":                     updateComment,
	"pulls/list-reviews":                              listReviews,
	"pulls/create-review":                             createReview,
	"pulls/update-review":                             updateReview,
	"checks/create":                                   createCheckRun,
	"checks/update":                                   updateCheckRun,
	"checks/list-for-ref":                             listCheckRuns,
	"repos/create-commit-status":                      createStatus,
	"repos/list-pull-requests-associated-with-commit": listCommitPulls,
	// issues.go
	"repos/get-collaborator-permission-level": getPermission,
	"issues/list-comments":                    listIssueComments,
	"issues/create-comment":                   createIssueComment,
}

func (s *Server) serveREST(w http.ResponseWriter, r *http.Request, body []byte) {
	in, err := s.validate(r, body)
	if in == nil {
		s.t.Errorf("ghtest: unexpected request %s %s: %v", r.Method, r.URL.RequestURI(), err)
		writeError(w, http.StatusNotFound, "Not Found")
		return
	}
	op := in.Route.Operation.OperationID
	buf := &bufferedWriter{header: http.Header{}, status: http.StatusOK}
	defer func() {
		if buf.status < 300 {
			if verr := validateResponse(in, buf.status, buf.header, buf.body.Bytes()); verr != nil {
				s.t.Errorf("ghtest: the emulator's answer to %s does not match the description: %v", op, verr)
			}
		}
		buf.flush(w)
	}()
	s.handle(buf, r, body, op, in.PathParams, err)
	s.runBetween(r)
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request, body []byte, op string, params map[string]string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts[op]++
	if err != nil {
		s.t.Errorf("ghtest: %s %s (%s): %v", r.Method, r.URL.RequestURI(), op, err)
		writeError(w, http.StatusUnprocessableEntity, "Invalid request.\n\n"+err.Error())
		return
	}
	now := time.Now()
	who, ok := s.tokens[token(r)]
	if !ok {
		writeError(w, http.StatusUnauthorized, "Bad credentials")
		return
	}
	defer s.answered(op)
	if f, ok := s.takeFault(op); ok {
		writeFault(w, f, now)
		return
	}
	if r.Method != http.MethodGet {
		if f, ok := s.writeFault(); ok {
			writeFault(w, f, now)
			return
		}
	}
	if who.ReadOnly && r.Method != http.MethodGet {
		writeError(w, http.StatusForbidden, "Resource not accessible by integration")
		return
	}
	h, ok := handlers[op]
	if !ok {
		s.t.Errorf("ghtest: operation %s is in the subset but has no handler", op)
		writeError(w, http.StatusNotImplemented, "not emulated")
		return
	}
	rateHeaders(w, now, s.totalCount())
	h(s, w, &request{op: op, r: r, body: body, params: params, who: who, now: now})
}

func (s *Server) totalCount() int {
	n := 0
	for _, c := range s.counts {
		n += c
	}
	return n
}
