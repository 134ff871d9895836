package ghapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/google/go-github/v62/github"
)

// graphQL sends one query and decodes its data into out. GraphQL answers
// 200 with "errors" for most failures; those become an error too.
func (c *Client) graphQL(ctx context.Context, query string, vars map[string]any, out any) error {
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars}) // encoding/json sorts map keys
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.gql, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("graphql: %w", err)
	}
	defer resp.Body.Close()
	if err := github.CheckResponse(resp); err != nil {
		return wrap("graphql", err)
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return fmt.Errorf("graphql: %w", err)
	}
	var env struct {
		Data   json.RawMessage `json:"data"`
		Errors []struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		return fmt.Errorf("graphql: decode answer: %w", err)
	}
	if len(env.Errors) > 0 {
		msgs := make([]string, len(env.Errors))
		for i, e := range env.Errors {
			msgs[i] = e.Message
		}
		status := http.StatusOK
		if env.Errors[0].Type == "FORBIDDEN" {
			status = http.StatusForbidden
		}
		return &HTTPError{Status: status, Message: strings.Join(msgs, "; "), Op: "graphql"}
	}
	return json.Unmarshal(env.Data, out)
}

const threadsQuery = `query AgcReviewThreads($owner: String!, $name: String!, $number: Int!, $cursor: String) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      reviewThreads(first: 100, after: $cursor) {
        pageInfo { hasNextPage endCursor }
        nodes { id isResolved resolvedBy { login } isOutdated comments(first: 1) { nodes { databaseId } } }
      }
    }
  }
}`

// Thread is a review thread as GraphQL lists it.
type Thread struct {
	ID         string
	Resolved   bool
	ResolvedBy string // the login that resolved it, when resolved
	Outdated   bool
	CommentIDs []int64 // its first comment's id
}

// Threads lists the review threads of the pull request.
func (c *Client) Threads(ctx context.Context, number int) ([]Thread, error) {
	var out []Thread
	var cursor any
	for {
		var data struct {
			Repository struct {
				PullRequest *struct {
					ReviewThreads struct {
						PageInfo struct {
							HasNextPage bool   `json:"hasNextPage"`
							EndCursor   string `json:"endCursor"`
						} `json:"pageInfo"`
						Nodes []struct {
							ID         string `json:"id"`
							IsResolved bool   `json:"isResolved"`
							ResolvedBy *struct {
								Login string `json:"login"`
							} `json:"resolvedBy"`
							IsOutdated bool `json:"isOutdated"`
							Comments   struct {
								Nodes []struct {
									DatabaseID int64 `json:"databaseId"`
								} `json:"nodes"`
							} `json:"comments"`
						} `json:"nodes"`
					} `json:"reviewThreads"`
				} `json:"pullRequest"`
			} `json:"repository"`
		}
		vars := map[string]any{"owner": c.cfg.Owner, "name": c.cfg.Repo, "number": number, "cursor": cursor}
		if err := c.graphQL(ctx, threadsQuery, vars, &data); err != nil {
			return nil, fmt.Errorf("list review threads: %w", err)
		}
		pr := data.Repository.PullRequest
		if pr == nil {
			return nil, fmt.Errorf("list review threads: pull request %d not found", number)
		}
		for _, n := range pr.ReviewThreads.Nodes {
			t := Thread{ID: n.ID, Resolved: n.IsResolved, Outdated: n.IsOutdated}
			if n.ResolvedBy != nil {
				t.ResolvedBy = n.ResolvedBy.Login
			}
			for _, cm := range n.Comments.Nodes {
				t.CommentIDs = append(t.CommentIDs, cm.DatabaseID)
			}
			out = append(out, t)
		}
		if !pr.ReviewThreads.PageInfo.HasNextPage {
			return out, nil
		}
		cursor = pr.ReviewThreads.PageInfo.EndCursor
	}
}

// SetThreads reopens and resolves review threads in one request of
// aliased mutations, reopening first; the caller bounds how many one
// request holds.
func (c *Client) SetThreads(ctx context.Context, reopen, resolve []string) error {
	if len(reopen)+len(resolve) == 0 {
		return nil
	}
	var params, body strings.Builder
	vars := map[string]any{}
	for i, id := range append(reopen[:len(reopen):len(reopen)], resolve...) {
		field := "unresolveReviewThread"
		if i >= len(reopen) {
			field = "resolveReviewThread"
		}
		if i > 0 {
			params.WriteString(", ")
		}
		fmt.Fprintf(&params, "$t%d: ID!", i)
		fmt.Fprintf(&body, "  r%d: %s(input: {threadId: $t%d}) { thread { id isResolved } }\n", i, field, i)
		vars[fmt.Sprintf("t%d", i)] = id
	}
	name := "AgcUpdateThreads"
	switch {
	case len(reopen) == 0:
		name = "AgcResolveThreads"
	case len(resolve) == 0:
		name = "AgcUnresolveThreads"
	}
	q := fmt.Sprintf("mutation %s(%s) {\n%s}", name, params.String(), body.String())
	var data map[string]any
	if err := c.graphQL(ctx, q, vars, &data); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
