package ghtest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/internal/testkit"
)

// peerDo sends one request to the front with the Actions token unless tok
// is given, and returns the status and body.
func peerDo(t *testing.T, p *PeerFront, method, path, accept string, tok ...string) (int, string) {
	t.Helper()
	resp, body := testkit.Send(t, method, p.URL()+strings.TrimPrefix(path, "/"), nil, "Authorization", "Bearer "+append(tok, TokenActions)[0], "Accept", accept)
	return resp.StatusCode, body
}

func TestPeerFrontDiffAndRepo(t *testing.T) {
	s, rec := newServer(t, Options{})
	p := s.NewPeerFront(t)
	status, body := peerDo(t, p, "GET", "repos/"+repo+"/pulls/2", "application/vnd.github.v3.diff")
	want := "diff --git a/README.md b/README.md\nnew file mode 100644\n--- /dev/null\n+++ b/README.md\n@@ -0,0 +1 @@\n+# Hello\n" +
		"diff --git a/src/a.go b/src/a.go\n--- a/src/a.go\n+++ b/src/a.go\n@@ -1,3 +1,5 @@\n package a\n \n func A() {}\n+\n+func B() {}\n"
	if status != 200 || body != want {
		t.Errorf("diff: %d\n%s\nwant\n%s", status, body, want)
	}
	status, body = peerDo(t, p, "GET", "repos/"+repo, "")
	var r map[string]any
	if err := json.Unmarshal([]byte(body), &r); status != 200 || err != nil || r["html_url"] != "https://github.com/"+repo {
		t.Errorf("repos/get: %d %s", status, body)
	}
	if n := s.Counts()["pulls/get"] + s.Counts()["repos/get"]; n != 2 {
		t.Errorf("counted %d front requests, want 2", n)
	}
	if errs := rec.complaints(); len(errs) > 0 {
		t.Errorf("complaints: %q", errs)
	}
}

func TestPeerFrontPassesThroughWithValidation(t *testing.T) {
	s, rec := newServer(t, Options{})
	p := s.NewPeerFront(t)
	if status, _ := peerDo(t, p, "GET", "repos/"+repo+"/pulls/2/files?per_page=100", ""); status != 200 {
		t.Errorf("list-files through the front: %d", status)
	}
	peerDo(t, p, "GET", "repos/"+repo+"/pulls/2/files?typo=1", "")
	if errs := rec.complaints(); len(errs) != 1 || !strings.Contains(errs[0], `query parameter "typo"`) {
		t.Errorf("complaints %q, want the emulator's one about typo", errs)
	}
}

func TestPeerFrontDeleteAndReply(t *testing.T) {
	s, _ := newServer(t, Options{})
	p := s.NewPeerFront(t)
	do(t, s, "POST", "repos/"+repo+"/pulls/2/reviews", map[string]any{"event": "COMMENT", "comments": []any{
		map[string]any{"path": "src/a.go", "line": 5, "body": "one"}, map[string]any{"path": "src/a.go", "line": 4, "body": "two"}}})
	var first, second int64
	s.Snapshot(func(prs map[string]*PullRequest, _ []*CheckRun, _ []*Status, _ []*SARIFUpload) {
		first, second = prs[repo+"#2"].Comments[0].ID, prs[repo+"#2"].Comments[1].ID
	})
	reply, err := p.Reply(repo, 2, first, Identity{Login: "octocat", ID: 583231, Type: "User"}, "why?")
	if err != nil {
		t.Fatal(err)
	}
	_, body := peerDo(t, p, "GET", "repos/"+repo+"/pulls/2/comments", "")
	var cs []map[string]any
	if err := json.Unmarshal([]byte(body), &cs); err != nil || len(cs) != 3 || cs[2]["in_reply_to_id"] != float64(first) || cs[2]["id"] != float64(reply) {
		t.Errorf("listing with a reply: %s", body)
	}
	if status, _ := peerDo(t, p, "DELETE", "repos/"+repo+"/pulls/comments/"+itoa(second), "", TokenUser); status != 403 {
		t.Errorf("another user deleted a comment: %d", status)
	}
	if status, _ := peerDo(t, p, "DELETE", "repos/"+repo+"/pulls/comments/"+itoa(second), ""); status != 204 {
		t.Errorf("delete: %d", status)
	}
	if status, _ := peerDo(t, p, "DELETE", "repos/"+repo+"/pulls/comments/"+itoa(second), ""); status != 404 {
		t.Errorf("second delete: %d", status)
	}
	s.Snapshot(func(prs map[string]*PullRequest, _ []*CheckRun, _ []*Status, _ []*SARIFUpload) {
		pr := prs[repo+"#2"]
		if len(pr.Comments) != 2 || len(pr.Threads) != 1 || len(pr.Threads[0].CommentIDs) != 2 {
			t.Errorf("after delete: %d comments, %d threads", len(pr.Comments), len(pr.Threads))
		}
	})
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }
