package ghtest

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
)

// GraphQL is not in the OpenAPI description and no GraphQL schema is
// installed, so the emulator checks GraphQL requests structurally: a named
// query or mutation whose root field is one it serves, every field name in
// it one that exists on those types in GitHub's schema, and the variables
// each root field needs, with the right JSON types.

// graphqlNames are the names a request may use: operation syntax and
// types; Query.repository → PullRequest.reviewThreads →
// PullRequestReviewThread; Mutation.resolveReviewThread and
// unresolveReviewThread.
var graphqlNames = map[string]bool{}

func init() {
	for _, name := range strings.Fields(`query mutation String Int ID Boolean
		repository owner name pullRequest number reviewThreads first after last before
		pageInfo hasNextPage endCursor nodes totalCount id isResolved isOutdated path line comments
		databaseId author login body
		resolveReviewThread unresolveReviewThread input threadId thread clientMutationId resolvedBy`) {
		graphqlNames[name] = true
	}
}

var (
	gqlIdent = regexp.MustCompile(`\$?[_A-Za-z][_0-9A-Za-z]*`)
	gqlOp    = regexp.MustCompile(`^\s*(query|mutation)\s+([_A-Za-z][_0-9A-Za-z]*)`)
	gqlFirst = regexp.MustCompile(`reviewThreads\s*\(\s*first\s*:\s*(\d+)`)
	// alias: resolveReviewThread(input: {threadId: $var})
	gqlResolveCall = regexp.MustCompile(`(?:([_A-Za-z][_0-9A-Za-z]*)\s*:\s*)?(un)?resolveReviewThread\s*\(\s*input\s*:\s*\{\s*threadId\s*:\s*\$([_A-Za-z][_0-9A-Za-z]*)\s*\}\s*\)`)
)

type gqlRequest struct {
	Query     string         `json:"query"`
	Variables map[string]any `json:"variables"`
}

// parseGraphQL names the operation of a GraphQL request and checks it.
func parseGraphQL(q *request) {
	q.gql = &gqlRequest{}
	if q.r.Method != http.MethodPost {
		q.lost, q.bad = http.StatusNotFound, fmt.Errorf("GraphQL wants POST")
		return
	}
	if err := json.Unmarshal(q.body, q.gql); err != nil {
		q.lost, q.bad = http.StatusBadRequest, fmt.Errorf("GraphQL body: %w", err)
		return
	}
	m := gqlOp.FindStringSubmatch(q.gql.Query)
	if m == nil {
		q.op, q.bad = "graphql", fmt.Errorf("not a named query or mutation: %q", q.gql.Query)
		return
	}
	q.op, q.write, q.serve = "graphql/"+m[2], m[1] == "mutation", gqlThreads
	if q.write {
		q.serve = gqlResolve
	}
	q.bad = checkGraphQL(*q.gql, m[2])
}

func checkGraphQL(q gqlRequest, opName string) error {
	aliases := map[string]bool{opName: true}
	for _, m := range gqlResolveCall.FindAllStringSubmatch(q.Query, -1) {
		aliases[m[1]] = true
	}
	for _, id := range gqlIdent.FindAllString(q.Query, -1) {
		if strings.HasPrefix(id, "$") {
			continue
		}
		if !graphqlNames[id] && !aliases[id] {
			return fmt.Errorf("field %q is not one the emulator knows from GitHub's schema", id)
		}
	}
	need := map[string]string{}
	for _, m := range gqlResolveCall.FindAllStringSubmatch(q.Query, -1) {
		need[m[3]] = "string"
	}
	if strings.Contains(q.Query, "reviewThreads") {
		need = map[string]string{"owner": "string", "name": "string", "number": "number"}
		if f := gqlFirst.FindStringSubmatch(q.Query); f == nil {
			return fmt.Errorf("reviewThreads needs first")
		} else if n, _ := strconv.Atoi(f[1]); n < 1 || n > 100 {
			return fmt.Errorf("reviewThreads first must be 1..100, got %d", n)
		}
	} else if len(need) == 0 {
		return fmt.Errorf("no root field the emulator serves")
	}
	for k, typ := range need {
		v, ok := q.Variables[k]
		switch {
		case !ok:
			return fmt.Errorf("variable $%s is missing", k)
		case typ == "string" && fmt.Sprintf("%T", v) != "string", typ == "number" && fmt.Sprintf("%T", v) != "float64":
			return fmt.Errorf("variable $%s has type %T, want %s", k, v, typ)
		}
	}
	return nil
}

func gqlThreads(s *Server, q *request) (any, error) {
	vars := q.gql.Variables
	pr := s.prs[fmt.Sprintf("%s/%s#%d", vars["owner"], vars["name"], int(vars["number"].(float64)))]
	if pr == nil {
		return obj{"data": obj{"repository": obj{"pullRequest": nil}},
			"errors": []any{obj{"type": "NOT_FOUND", "message": "Could not resolve to a PullRequest."}}}, nil
	}
	first, _ := strconv.Atoi(gqlFirst.FindStringSubmatch(q.gql.Query)[1])
	start := 0
	if c, ok := vars["cursor"].(string); ok && c != "" {
		start = decodeCursor(c)
	}
	start = min(start, len(pr.Threads))
	end := min(start+first, len(pr.Threads))
	nodes := []any{}
	for _, t := range pr.Threads[start:end] {
		nodes = append(nodes, threadJSON(pr, t))
	}
	conn := obj{"totalCount": len(pr.Threads), "nodes": nodes,
		"pageInfo": obj{"hasNextPage": end < len(pr.Threads), "endCursor": encodeCursor(end)}}
	return obj{"data": obj{"repository": obj{"pullRequest": obj{"reviewThreads": conn}}}}, nil
}

func threadJSON(pr *PullRequest, t *Thread) obj {
	var cs []any
	for _, id := range t.CommentIDs {
		c := pr.comment(id)
		cs = append(cs, obj{"id": c.NodeID, "databaseId": c.ID, "body": c.Body,
			"author": obj{"login": strings.TrimSuffix(c.User.Login, "[bot]")}})
	}
	first := pr.comment(t.CommentIDs[0])
	m := obj{"id": t.ID, "isResolved": t.Resolved, "resolvedBy": nil, "isOutdated": t.Outdated, "path": first.Path,
		"line": nil, "comments": obj{"totalCount": len(cs), "nodes": cs}}
	if t.Resolved {
		m["resolvedBy"] = obj{"login": t.ResolvedBy}
	}
	if first.Line > 0 {
		m["line"] = first.Line
	}
	return m
}

func encodeCursor(n int) string {
	return base64.StdEncoding.EncodeToString([]byte("cursor:v2:" + strconv.Itoa(n)))
}

func decodeCursor(c string) int {
	b, _ := base64.StdEncoding.DecodeString(c)
	n, _ := strconv.Atoi(strings.TrimPrefix(string(b), "cursor:v2:"))
	return n
}

// gqlResolve runs every (un)resolveReviewThread call of a mutation, each
// under its alias; an unknown thread gives null data and an error entry.
func gqlResolve(s *Server, q *request) (any, error) {
	data := obj{}
	var errs []any
	for _, m := range gqlResolveCall.FindAllStringSubmatch(q.gql.Query, -1) {
		key := orDefault(m[1], m[2]+"resolveReviewThread")
		id := q.gql.Variables[m[3]].(string)
		var t *Thread
		for _, pr := range s.prs {
			t = cmp.Or(t, pr.thread(id))
		}
		if t == nil {
			data[key] = nil
			errs = append(errs, obj{"type": "NOT_FOUND", "path": []string{key},
				"message": "Could not resolve to a node with the global id of '" + id + "'"})
			continue
		}
		t.Resolved, t.ResolvedBy = m[2] == "", ""
		if t.Resolved {
			t.ResolvedBy = strings.TrimSuffix(q.who.Login, "[bot]")
		}
		data[key] = obj{"thread": obj{"id": t.ID, "isResolved": t.Resolved}}
	}
	out := obj{"data": data}
	if errs != nil {
		out["errors"] = errs
	}
	return out, nil
}
