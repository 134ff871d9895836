package ghapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/agcgate/agc-action/review"
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
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return fmt.Errorf("graphql: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return &HTTPError{Status: resp.StatusCode, Message: githubMessage(raw), Op: "graphql"}
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

// threads maps the first comment id of every review thread of the pull
// request to its thread.
func (c *Client) threads(ctx context.Context, number int) (map[int64]review.Thread, error) {
	out := map[int64]review.Thread{}
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
			t := review.Thread{ID: n.ID, Resolved: n.IsResolved, Outdated: n.IsOutdated}
			if n.ResolvedBy != nil {
				t.ResolvedBy = n.ResolvedBy.Login
			}
			for _, cm := range n.Comments.Nodes {
				t.CommentIDs = append(t.CommentIDs, cm.DatabaseID)
			}
			if len(t.CommentIDs) > 0 {
				out[t.CommentIDs[0]] = t
			}
		}
		if !pr.ReviewThreads.PageInfo.HasNextPage {
			return out, nil
		}
		cursor = pr.ReviewThreads.PageInfo.EndCursor
	}
}

// setThreads reopens and resolves review threads, reopening first,
// review.ThreadsPerRequest per request with aliased mutations: the
// ceiling (review.Budget) keeps a run's threads within
// review.MaxThreadRequestsPerRun requests.
func (c *Client) setThreads(ctx context.Context, reopen, resolve []string) error {
	type call struct {
		id      string
		resolve bool
	}
	var calls []call
	for _, id := range reopen {
		calls = append(calls, call{id, false})
	}
	for _, id := range resolve {
		calls = append(calls, call{id, true})
	}
	for len(calls) > 0 {
		batch := calls[:min(len(calls), review.ThreadsPerRequest)]
		calls = calls[len(batch):]
		var params, body strings.Builder
		vars := map[string]any{}
		kinds := map[bool]bool{}
		for i, cl := range batch {
			field := "unresolveReviewThread"
			if cl.resolve {
				field = "resolveReviewThread"
			}
			kinds[cl.resolve] = true
			if i > 0 {
				params.WriteString(", ")
			}
			fmt.Fprintf(&params, "$t%d: ID!", i)
			fmt.Fprintf(&body, "  r%d: %s(input: {threadId: $t%d}) { thread { id isResolved } }\n", i, field, i)
			vars[fmt.Sprintf("t%d", i)] = cl.id
		}
		name := "AgcUpdateThreads"
		switch {
		case !kinds[false]:
			name = "AgcResolveThreads"
		case !kinds[true]:
			name = "AgcUnresolveThreads"
		}
		q := fmt.Sprintf("mutation %s(%s) {\n%s}", name, params.String(), body.String())
		var data map[string]any
		if err := c.graphQL(ctx, q, vars, &data); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}
