package ghapi

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/go-github/v62/github"
)

// DefaultLogin is the author of comments made with the Actions token.
const DefaultLogin = "github-actions[bot]"

// Config says where and as whom the client works.
type Config struct {
	Owner, Repo string
	Token       string
	// BaseURL is the REST API root (GITHUB_API_URL); "" is api.github.com.
	// GitHub Enterprise Server is https://HOST/api/v3.
	BaseURL string
	// GraphQLURL is GITHUB_GRAPHQL_URL; "" derives it from BaseURL.
	GraphQLURL string
	// Login is the identity whose comments a rerun takes as its own.
	Login string
	// Transport sends requests (a dry-run or test transport); nil is
	// http.DefaultTransport. It is wrapped with retries.
	Transport http.RoundTripper
	Retry     RetryPolicy
	// Timeout bounds one request, retries included (default 5 minutes).
	Timeout time.Duration
}

// Client posts to one repository.
type Client struct {
	cfg   Config
	gh    *github.Client
	http  *http.Client // gh's, with its auth, for GraphQL
	gql   string
	retry *retryTransport
}

// New returns a client for cfg.
func New(cfg Config) (*Client, error) {
	if cfg.Owner == "" || cfg.Repo == "" {
		return nil, fmt.Errorf("repository owner and name are required")
	}
	if cfg.Login == "" {
		cfg.Login = DefaultLogin
	}
	base := cfg.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 5 * time.Minute
	}
	retry := newRetryTransport(base, cfg.Retry)
	gh := github.NewClient(&http.Client{Timeout: cfg.Timeout, Transport: retry})
	if cfg.Token != "" {
		gh = gh.WithAuthToken(cfg.Token)
	}
	gql := cfg.GraphQLURL
	if cfg.BaseURL != "" {
		api := strings.TrimSuffix(cfg.BaseURL, "/") + "/"
		var err error
		if gh, err = gh.WithEnterpriseURLs(api, api); err != nil {
			return nil, fmt.Errorf("GITHUB_API_URL %q: %w", cfg.BaseURL, err)
		}
		// WithEnterpriseURLs appends /api/v3/ to a bare host; keep the
		// given root exactly, as GITHUB_API_URL already names it.
		u, err := url.Parse(api)
		if err != nil {
			return nil, fmt.Errorf("GITHUB_API_URL %q: %w", cfg.BaseURL, err)
		}
		gh.BaseURL = u
	}
	if gql == "" {
		gql = graphQLFor(gh.BaseURL)
	}
	return &Client{cfg: cfg, gh: gh, http: gh.Client(), gql: gql, retry: retry}, nil
}

// graphQLFor derives the GraphQL endpoint from the REST root:
// api.github.com/graphql, or HOST/api/graphql on Enterprise Server.
func graphQLFor(api *url.URL) string {
	u := *api
	if strings.HasSuffix(u.Path, "/api/v3/") {
		u.Path = strings.TrimSuffix(u.Path, "v3/") + "graphql"
	} else {
		u.Path = strings.TrimSuffix(u.Path, "/") + "/graphql"
	}
	return u.String()
}
