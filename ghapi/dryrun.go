package ghapi

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"regexp"
	"strings"
	"sync"

	"github.com/agcgate/agc-action/internal/logsafe"
)

// DryRun is an http.RoundTripper that prints every request exactly as it
// would be sent (the token masked) and answers it itself, so nothing is
// written. With Reads set, reads (GET and GraphQL queries) are sent through
// it for real answers; otherwise they get empty ones.
type DryRun struct {
	W     io.Writer
	Reads http.RoundTripper

	mu sync.Mutex
	n  int
}

// RoundTrip prints r and answers it.
func (d *DryRun) RoundTrip(r *http.Request) (*http.Response, error) {
	body, err := readBody(r)
	if err != nil {
		return nil, err
	}
	read := isRead(r, body)
	if read && d.Reads != nil {
		r2 := r.Clone(r.Context())
		r2.Body = io.NopCloser(bytes.NewReader(body))
		return d.Reads.RoundTrip(r2)
	}
	if err := d.print(r, body); err != nil {
		return nil, err
	}
	status, answer := dryAnswer(r, body)
	return &http.Response{StatusCode: status, Status: http.StatusText(status), Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(strings.NewReader(answer)), Request: r}, nil
}

func readBody(r *http.Request) ([]byte, error) {
	if r.Body == nil {
		return nil, nil
	}
	b, err := io.ReadAll(r.Body)
	r.Body.Close()
	return b, err
}

func isRead(r *http.Request, body []byte) bool {
	if r.Method == http.MethodGet {
		return true
	}
	return strings.HasSuffix(r.URL.Path, "/graphql") && bytes.Contains(body, []byte(`"query":"query `))
}

func (d *DryRun) print(r *http.Request, body []byte) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.n++
	r2 := r.Clone(r.Context())
	if r2.Header.Get("Authorization") != "" {
		r2.Header.Set("Authorization", "Bearer ***")
	}
	r2.Body = io.NopCloser(bytes.NewReader(body))
	r2.ContentLength = int64(len(body))
	dump, err := httputil.DumpRequestOut(r2, true)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(d.W, "--- dry-run request %d\n%s\n\n", d.n, inert(dump))
	return err
}

// inert is a request dump made safe for the runner's log, which takes
// "::" at a line's start and "##[" anywhere as commands: the body holds
// the judged party's text (rule ids, messages, paths). A JSON body, every
// body GitHub is sent, keeps its meaning with "##[" written as
// "##\u005b" (logsafe.JSON); the head, and a body that is not JSON, are
// escaped line by line (logsafe.Lines).
func inert(dump []byte) []byte {
	head, body, _ := bytes.Cut(dump, []byte("\r\n\r\n"))
	out := logsafe.Lines(bytes.ReplaceAll(head, []byte("\r\n"), []byte("\n")))
	out = append(out, "\n\n"...)
	if safe, ok := logsafe.JSON(body); ok {
		return append(out, safe...)
	}
	return append(out, logsafe.Lines(body)...)
}

// pullPath is GET /repos/{owner}/{repo}/pulls/{n}.
var pullPath = regexp.MustCompile(`/pulls/[0-9]+$`)

// dryAnswer is the least GitHub would answer, enough for the client to go on.
func dryAnswer(r *http.Request, body []byte) (int, string) {
	p := r.URL.Path
	switch {
	case strings.HasSuffix(p, "/graphql") && bytes.Contains(body, []byte(`"query":"query `)):
		return 200, `{"data":{"repository":{"pullRequest":{"reviewThreads":{"pageInfo":{"hasNextPage":false,"endCursor":""},"nodes":[]}}}}}`
	case strings.HasSuffix(p, "/graphql"):
		return 200, `{"data":{}}`
	case r.Method == http.MethodGet && strings.Contains(p, "/code-scanning/sarifs/"):
		return 200, `{"processing_status":"complete"}`
	case r.Method == http.MethodGet && pullPath.MatchString(p):
		return 200, `{}` // a pull request with no head named: no newer head
	case r.Method == http.MethodGet && strings.HasSuffix(p, "/check-runs"):
		return 200, `{"total_count":0,"check_runs":[]}`
	case r.Method == http.MethodGet:
		return 200, `[]`
	case strings.HasSuffix(p, "/code-scanning/sarifs"):
		return 202, `{"id":"dry-run","url":""}`
	}
	return 201, `{"id":1}`
}
