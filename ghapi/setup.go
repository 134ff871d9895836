package ghapi

import (
	"io"
	"net/http"
)

// NewFromEnv returns the client a command posts with, the one constructor
// of the Action, "agc-sarif github" and "agc-sarif carry --github": cfg at
// the API roots the runner names (GITHUB_API_URL and GITHUB_GRAPHQL_URL;
// unset is github.com). With dryRun set, every request that would write is
// printed to it and not sent (DryRun); reads are sent when cfg has a token,
// and get empty answers without one.
func NewFromEnv(getenv func(string) string, cfg Config, dryRun io.Writer) (*Client, error) {
	cfg.BaseURL, cfg.GraphQLURL = getenv("GITHUB_API_URL"), getenv("GITHUB_GRAPHQL_URL")
	if dryRun != nil {
		dr := &DryRun{W: dryRun}
		if cfg.Token != "" {
			dr.Reads = cfg.Transport
			if dr.Reads == nil {
				dr.Reads = http.DefaultTransport
			}
		}
		cfg.Transport = dr
	}
	return New(cfg)
}
