package ghapi

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// heard answers every request with an empty success and keeps the
// Authorization header of each, by path.
type heard struct {
	mu   sync.Mutex
	auth map[string]string
}

func (h *heard) RoundTrip(r *http.Request) (*http.Response, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.auth[r.URL.Path] = r.Header.Get("Authorization")
	body := `{"permission":"read"}`
	if strings.HasSuffix(r.URL.Path, "/graphql") {
		body = `{"data":{}}`
	}
	return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(body)), Request: r}, nil
}

// TestAuthorization: the token reaches REST and GraphQL alike as a bearer
// token; without one no Authorization header is sent.
func TestAuthorization(t *testing.T) {
	for _, token := range []string{"", "t0ken"} {
		h := &heard{auth: map[string]string{}}
		c, err := New(Config{Owner: "o", Repo: "r", Token: token, BaseURL: "https://ghe.invalid/api/v3", Transport: h})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		if _, _, err := c.Permission(ctx, "octocat"); err != nil {
			t.Fatal(err)
		}
		var out map[string]any
		if err := c.graphQL(ctx, "query Q { x }", nil, &out); err != nil {
			t.Fatal(err)
		}
		want := ""
		if token != "" {
			want = "Bearer " + token
		}
		for _, p := range []string{"/api/v3/repos/o/r/collaborators/octocat/permission", "/api/graphql"} {
			if got, ok := h.auth[p]; !ok || got != want {
				t.Errorf("token %q: %s sent Authorization %q (sent %v), want %q", token, p, got, ok, want)
			}
		}
	}
}
