package ghtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agcgate/agc-action/internal/testkit"
)

// recorder is a testing.TB that collects the emulator's complaints
// instead of failing the test, so tests can assert on them.
type recorder struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *recorder) complaints() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.errs...)
}

const (
	repo = "Codertocat/Hello-World"
	sha1 = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"
	sha2 = "6113728f27ae82c7b1a177c8d03f9e96e0adf246"
)

func newServer(t *testing.T, opt Options) (*Server, *recorder) {
	rec := &recorder{TB: t}
	s := New(rec, opt)
	s.SetHead(repo, 2, sha1, []File{
		{Path: "src/a.go", Base: "package a\n\nfunc A() {}\n", Head: "package a\n\nfunc A() {}\n\nfunc B() {}\n"},
		{Path: "README.md", Base: "", Head: "# Hello\n"},
	})
	return s, rec
}

// do sends one request with the Actions token unless tok is given.
func do(t *testing.T, s *Server, method, path string, body any, tok ...string) (*http.Response, map[string]any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	url := s.URL() + strings.TrimPrefix(path, "/")
	if strings.HasPrefix(path, "graphql") {
		url = s.GraphQLURL()
	}
	resp, raw := testkit.Send(t, method, url, rd, "Content-Type", "application/json", "Authorization", "Bearer "+append(tok, TokenActions)[0])
	var out map[string]any
	if len(raw) > 0 && raw[0] == '{' {
		if err := json.Unmarshal([]byte(raw), &out); err != nil {
			t.Fatalf("decode %s: %v", raw, err)
		}
	} else {
		out = map[string]any{"_raw": raw}
	}
	return resp, out
}

func TestPatchComputedLikeGit(t *testing.T) {
	s, _ := newServer(t, Options{})
	pr := s.PR(repo, 2)
	if got, want := change(pr, "src/a.go"), "@@ -1,3 +1,5 @@\n package a\n \n func A() {}\n+\n+func B() {}"; got != want {
		t.Errorf("patch:\n%s\nwant:\n%s", got, want)
	}
	if got, want := change(pr, "README.md"), "@@ -0,0 +1 @@\n+# Hello"; got != want {
		t.Errorf("patch:\n%s\nwant:\n%s", got, want)
	}
}

func TestRejectsWhatTheDescriptionDoesNot(t *testing.T) {
	tests := []struct {
		name, method, path string
		body               any
		want               string
	}{
		{"unknown endpoint", "GET", "user", nil, "no operation"},
		{"endpoint ghapi does not use", "DELETE", "repos/Codertocat/Hello-World/pulls/comments/1", nil, "only a peer tool uses it"},
		{"peer's endpoint at the emulator's address", "GET", "repos/Codertocat/Hello-World", nil, "only a peer tool uses it"},
		{"bad enum", "POST", "repos/Codertocat/Hello-World/statuses/" + sha1, map[string]any{"state": "green"}, "does not match"},
		{"missing required", "POST", "repos/Codertocat/Hello-World/check-runs", map[string]any{"name": "x"}, "does not match"},
		{"unknown body member", "POST", "repos/Codertocat/Hello-World/statuses/" + sha1, map[string]any{"state": "success", "colour": "green"}, `property "colour" is unsupported`},
		{"unknown query", "GET", "repos/Codertocat/Hello-World/pulls/2/files?perpage=100", nil, `query parameter "perpage"`},
		{"wrong query type", "GET", "repos/Codertocat/Hello-World/pulls/2/files?per_page=many", nil, "does not match"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, rec := newServer(t, Options{})
			do(t, s, tc.method, tc.path, tc.body)
			errs := rec.complaints()
			if len(errs) != 1 || !strings.Contains(errs[0], tc.want) {
				t.Errorf("complaints = %q, want one containing %q", errs, tc.want)
			}
		})
	}
}

func TestBehavesLikeGitHub(t *testing.T) {
	long := strings.Repeat("é", 141)
	ann := map[string]any{"path": "a.go", "start_line": 1, "end_line": 1, "annotation_level": "warning", "message": "m"}
	var anns []any
	for i := 0; i < 51; i++ {
		anns = append(anns, ann)
	}
	tests := []struct {
		name, method, path string
		body               any
		token              string
		status             int
		msg                string
		complaint          string // the description itself forbids the request
	}{
		{"status description over 140", "POST", "repos/" + repo + "/statuses/" + sha1,
			map[string]any{"state": "success", "description": long}, TokenActions, 422, "maximum is 140", ""},
		{"51 annotations", "POST", "repos/" + repo + "/check-runs",
			map[string]any{"name": "x", "head_sha": sha1, "output": map[string]any{"title": "t", "summary": "s", "annotations": anns}}, TokenActions, 422, "", "maxItems"},
		{"read-only token", "POST", "repos/" + repo + "/statuses/" + sha1,
			map[string]any{"state": "success"}, TokenReadOnly, 403, "Resource not accessible by integration", ""},
		{"read-only token may read", "GET", "repos/" + repo + "/pulls/2/files", nil, TokenReadOnly, 200, "", ""},
		{"bad token", "GET", "repos/" + repo + "/pulls/2/files", nil, "nope", 401, "Bad credentials", ""},
		{"comment outside the diff fails the review", "POST", "repos/" + repo + "/pulls/2/reviews",
			map[string]any{"event": "COMMENT", "body": "b", "comments": []any{
				map[string]any{"path": "src/a.go", "line": 4, "side": "RIGHT", "body": "ok"},
				map[string]any{"path": "src/a.go", "line": 40, "side": "RIGHT", "body": "outside"}}}, TokenActions, 422, "must be part of the diff", ""},
		{"multi-line across hunks", "POST", "repos/" + repo + "/pulls/2/reviews",
			map[string]any{"event": "COMMENT", "body": "b", "comments": []any{
				map[string]any{"path": "README.md", "start_line": 1, "line": 2, "side": "RIGHT", "body": "x"}}}, TokenActions, 422, "must be part of the diff", ""},
		{"file comment on a file outside the PR", "POST", "repos/" + repo + "/pulls/2/comments",
			map[string]any{"path": "other.go", "body": "b", "commit_id": sha1, "subject_type": "file"}, TokenActions, 422, "Path could not be resolved", ""},
		{"Actions may not approve", "POST", "repos/" + repo + "/pulls/2/reviews",
			map[string]any{"event": "APPROVE"}, TokenActions, 422, "not permitted to approve", ""},
		{"users cannot create check runs", "POST", "repos/" + repo + "/check-runs",
			map[string]any{"name": "x", "head_sha": sha1}, TokenUser, 403, "GitHub App", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, rec := newServer(t, Options{})
			resp, body := do(t, s, tc.method, tc.path, tc.body, tc.token)
			if resp.StatusCode != tc.status {
				t.Errorf("status %d, want %d: %v", resp.StatusCode, tc.status, body)
			}
			if raw, _ := json.Marshal(body); !strings.Contains(string(raw), tc.msg) {
				t.Errorf("answer %s does not say %q", raw, tc.msg)
			}
			errs := rec.complaints()
			if tc.complaint == "" && len(errs) > 0 || tc.complaint != "" && (len(errs) != 1 || !strings.Contains(errs[0], tc.complaint)) {
				t.Errorf("complaints %q, want %q", errs, tc.complaint)
			}
		})
	}
}

func TestStateAfterReviewFailure(t *testing.T) {
	s, _ := newServer(t, Options{})
	do(t, s, "POST", "repos/"+repo+"/pulls/2/reviews", map[string]any{"event": "COMMENT", "body": "b", "comments": []any{
		map[string]any{"path": "src/a.go", "line": 5, "body": "ok"}, map[string]any{"path": "src/a.go", "line": 99, "body": "bad"}}})
	s.Snapshot(func(prs map[string]*PullRequest, _ []*CheckRun, _ []*Status, _ []*SARIFUpload) {
		if pr := prs[repo+"#2"]; len(pr.Comments) != 0 || len(pr.Reviews) != 0 {
			t.Errorf("a failed review left %d comments and %d reviews", len(pr.Comments), len(pr.Reviews))
		}
	})
}

func TestInjectedFaults(t *testing.T) {
	s, _ := newServer(t, Options{})
	s.Inject("pulls/list-files", SecondaryRateLimit(403, 7), SecondaryRateLimit(429, 3), ServerError(502), PrimaryRateLimit(time.Minute))
	want := []struct {
		status     int
		retryAfter string
		remaining  string
	}{{403, "7", ""}, {429, "3", ""}, {502, "", ""}, {403, "", "0"}, {200, "", "4995"}}
	for i, w := range want {
		resp, _ := do(t, s, "GET", "repos/"+repo+"/pulls/2/files", nil)
		if resp.StatusCode != w.status || resp.Header.Get("Retry-After") != w.retryAfter ||
			w.remaining != "" && resp.Header.Get("X-RateLimit-Remaining") != w.remaining {
			t.Errorf("request %d: %d Retry-After %q Remaining %q, want %+v", i, resp.StatusCode,
				resp.Header.Get("Retry-After"), resp.Header.Get("X-RateLimit-Remaining"), w)
		}
	}
	if n := s.Counts()["pulls/list-files"]; n != 5 {
		t.Errorf("counted %d requests, want 5", n)
	}
}

func TestPagination(t *testing.T) {
	s, _ := newServer(t, Options{})
	var fs []File
	for i := 0; i < 250; i++ {
		fs = append(fs, File{Path: fmt.Sprintf("f%03d", i), Head: "x\n"})
	}
	s.SetHead(repo, 3, sha2, fs)
	resp, _ := do(t, s, "GET", "repos/"+repo+"/pulls/3/files?per_page=100&page=2", nil)
	link := resp.Header.Get("Link")
	for _, rel := range []string{`page=3&per_page=100>; rel="next"`, `page=3&per_page=100>; rel="last"`, `page=1&per_page=100>; rel="prev"`, `rel="first"`} {
		if !strings.Contains(link, rel) {
			t.Errorf("Link %q lacks %s", link, rel)
		}
	}
}

func TestSetHeadFromEvent(t *testing.T) {
	s, _ := newServer(t, Options{})
	ev, err := s.SetHeadFromEvent("../../fixtures/webhooks/pull_request.opened.json", []File{{Path: "x.go", Head: "x\n"}})
	if err != nil {
		t.Fatal(err)
	}
	if ev != (Event{Repo: "Codertocat/Hello-World", Number: 2, HeadSHA: "ec26c3e57ca3a959ca5aad62de7213c562f8c821"}) {
		t.Errorf("event %+v", ev)
	}
	if _, err := s.SetHeadFromEvent("../../fixtures/webhooks/push.json", nil); err == nil {
		t.Error("a push event made a pull request")
	}
}

// TestPushOutdatesACommentWhoseStartLeavesTheDiff: a multi-line comment
// whose first line is no longer part of the diff after a push is
// outdated, as GitHub could not place it there either; its last line
// alone staying in the diff does not keep it.
func TestPushOutdatesACommentWhoseStartLeavesTheDiff(t *testing.T) {
	s, _ := newServer(t, Options{})
	var base, head1 []string
	for i := 1; i <= 20; i++ {
		base = append(base, fmt.Sprintf("l%d", i))
	}
	head1 = append(append(append(head1, base[:2]...), "X7"), base[7:]...) // l3..l6 deleted, l7 changed
	head2 := append(append(append([]string(nil), base[:6]...), "X7"), base[7:]...)
	file := func(head []string) []File {
		return []File{{Path: "f.go", Base: strings.Join(base, "\n") + "\n", Head: strings.Join(head, "\n") + "\n"}}
	}
	s.SetHead(repo, 5, sha1, file(head1))
	resp, body := do(t, s, "POST", "repos/"+repo+"/pulls/5/reviews", map[string]any{"event": "COMMENT", "comments": []any{
		map[string]any{"path": "f.go", "start_line": 2, "line": 3, "body": "two lines"}}})
	if resp.StatusCode != 200 {
		t.Fatalf("review: %d %v", resp.StatusCode, body)
	}
	s.SetHead(repo, 5, sha2, file(head2))
	s.Snapshot(func(prs map[string]*PullRequest, _ []*CheckRun, _ []*Status, _ []*SARIFUpload) {
		if c := prs[repo+"#5"].Comments[0]; c.Line != 0 || !prs[repo+"#5"].Threads[0].Outdated {
			t.Errorf("comment at lines %d-%d of the new head, outdated %v; want it outdated", c.StartLine, c.Line, prs[repo+"#5"].Threads[0].Outdated)
		}
	})
}

// change is the patch pr serves for path.
func change(pr *PullRequest, path string) string {
	_, patch, _ := pr.Change(path)
	return patch
}

// TestGraphQLCheckedAgainstTheSchema: a GraphQL request is checked against
// GitHub's schema (graphql/), each field on its own type, each argument
// and variable with its type; one that breaks it is refused and fails the
// test that sent it.
func TestGraphQLCheckedAgainstTheSchema(t *testing.T) {
	const threads = `query AgcReviewThreads($owner: String!, $name: String!, $number: Int!) {
  repository(owner: $owner, name: $name) { pullRequest(number: $number) { reviewThreads(first: 10) { %s } } } }`
	vars := map[string]any{"owner": "Codertocat", "name": "Hello-World", "number": 2}
	tests := []struct {
		name, query string
		vars        map[string]any
		complaint   string // "" for none
	}{
		{"the threads", fmt.Sprintf(threads, "nodes { id isResolved }"), vars, ""},
		{"a field GitHub does not have", fmt.Sprintf(threads, "nodes { idd }"), vars, `Cannot query field "idd"`},
		{"a field of another type", fmt.Sprintf(threads, "nodes { login }"), vars, `Cannot query field "login" on type "PullRequestReviewThread"`},
		{"a variable of the wrong type", fmt.Sprintf(threads, "totalCount"), map[string]any{"owner": "Codertocat", "name": "Hello-World", "number": "2"}, "number"},
		{"a variable missing", fmt.Sprintf(threads, "totalCount"), map[string]any{"owner": "Codertocat", "name": "Hello-World"}, "number"},
		{"more than 100 threads", strings.Replace(fmt.Sprintf(threads, "totalCount"), "first: 10", "first: 101", 1), vars, "first"},
		{"a mutation", `mutation AgcResolveThreads($t0: ID!) { r0: resolveReviewThread(input: {threadId: $t0}) { thread { id isResolved } } }`,
			map[string]any{"t0": "PRRT_1"}, ""},
		{"a mutation with an argument GitHub does not have", `mutation AgcResolveThreads($t0: ID!) { resolveReviewThread(input: {threadId: $t0, why: "x"}) { thread { id } } }`,
			map[string]any{"t0": "PRRT_1"}, "why"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, rec := newServer(t, Options{})
			do(t, s, http.MethodPost, "graphql", map[string]any{"query": tc.query, "variables": tc.vars})
			got := strings.Join(rec.complaints(), "\n")
			if tc.complaint == "" && got != "" || !strings.Contains(got, tc.complaint) {
				t.Errorf("complaints %q, want one containing %q", got, tc.complaint)
			}
		})
	}
}
