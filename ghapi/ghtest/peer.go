package ghtest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// PeerFront is a second address of the emulator for a peer tool (such as
// reviewdog) in tests that compare it with ghapi on the same pull request.
// It serves every request as the emulator's own address does, with the
// same validation, and also the operations a peer uses and ghapi never
// does (x-agc-peer in the subset: repos/get and
// pulls/delete-review-comment), which the emulator's own address refuses,
// so ghapi's tests still fail on them. The emulator's methods (Reply
// among them) are the front's too.
type PeerFront struct {
	*Server
	front *httptest.Server
}

// NewPeerFront starts a front on loopback that closes with the test.
func (s *Server) NewPeerFront(t testing.TB) *PeerFront {
	t.Helper()
	p := &PeerFront{Server: s}
	p.front = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The router matches requests against the emulator's own address.
		r.Host = s.srv.Listener.Addr().String()
		r.URL.Host = r.Host
		s.serve(w, r, true)
	}))
	t.Cleanup(p.front.Close)
	return p
}

// URL is the front's REST API base URL with a trailing slash.
func (p *PeerFront) URL() string { return p.front.URL + p.opt.Prefix + "/" }

// diff is the pull request as `git diff` writes it, as GitHub sends it for
// the diff media type.
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
