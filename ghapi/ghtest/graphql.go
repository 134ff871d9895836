package ghtest

import (
	"cmp"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/validator"
)

//go:embed graphql/github.subset.graphql
var graphqlSDL string

// graphqlSchema is the part of GitHub's GraphQL schema the emulator serves
// (graphql/README.md).
var graphqlSchema = gqlparser.MustLoadSchema(&ast.Source{Name: "graphql/github.subset.graphql", Input: graphqlSDL})

type gqlRequest struct {
	Query     string         `json:"query"`
	Variables map[string]any `json:"variables"`
	// root are the operation's root fields, their arguments resolved
	root ast.SelectionSet
}

// parseGraphQL names the operation of a GraphQL request and checks it
// against GitHub's schema: each field on its type, each argument and
// variable with its type, and GitHub's bound of 1 to 100 on first.
func parseGraphQL(q *request) {
	q.gql, q.op = &gqlRequest{}, "graphql"
	if q.r.Method != http.MethodPost {
		q.op, q.lost, q.bad = "", http.StatusNotFound, fmt.Errorf("GraphQL wants POST")
		return
	}
	if err := json.Unmarshal(q.body, q.gql); err != nil {
		q.op, q.lost, q.bad = "", http.StatusBadRequest, fmt.Errorf("GraphQL body: %w", err)
		return
	}
	doc, errs := gqlparser.LoadQueryWithRules(graphqlSchema, q.gql.Query, nil) // nil: the default rules
	if len(errs) > 0 {
		q.bad = errs
		return
	}
	op := doc.Operations[0]
	if len(doc.Operations) > 1 || op.Name == "" {
		q.bad = fmt.Errorf("not one named query or mutation: %q", q.gql.Query)
		return
	}
	q.op, q.write, q.serve, q.gql.root = "graphql/"+op.Name, op.Operation == ast.Mutation, gqlThreads, op.SelectionSet
	if q.write {
		q.serve = gqlResolve
	}
	for _, v := range op.VariableDefinitions { // GitHub takes no string for an Int, as gqlparser does
		if _, ok := q.gql.Variables[v.Variable].(string); ok && v.Type.Name() == "Int" {
			q.bad = fmt.Errorf("variable $%s is a string, want Int", v.Variable)
			return
		}
	}
	if q.gql.Variables, q.bad = validator.VariableValues(graphqlSchema, op, q.gql.Variables); q.bad == nil && !q.write {
		if n, _ := threadsField(q.gql).ArgumentMap(q.gql.Variables)["first"].(int64); n < 1 || n > 100 {
			q.bad = fmt.Errorf("reviewThreads first must be 1..100, got %d", n)
		}
	}
}

// threadsField is the query's repository.pullRequest.reviewThreads.
func threadsField(g *gqlRequest) *ast.Field {
	f := &ast.Field{SelectionSet: g.root}
	for _, name := range []string{"repository", "pullRequest", "reviewThreads"} {
		for _, sel := range f.SelectionSet {
			if x, ok := sel.(*ast.Field); ok && x.Name == name {
				f = x
			}
		}
	}
	return f
}

func gqlThreads(s *Server, q *request) (any, error) {
	f := threadsField(q.gql)
	vars := q.gql.Variables
	pr := s.prs[fmt.Sprintf("%s/%s#%v", vars["owner"], vars["name"], vars["number"])]
	if pr == nil {
		return obj{"data": obj{"repository": obj{"pullRequest": nil}},
			"errors": []any{obj{"type": "NOT_FOUND", "message": "Could not resolve to a PullRequest."}}}, nil
	}
	args := f.ArgumentMap(vars)
	first, start := int(args["first"].(int64)), 0
	if c, ok := args["after"].(string); ok && c != "" {
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
	for _, sel := range q.gql.root {
		m := sel.(*ast.Field)
		key, id := m.Alias, m.ArgumentMap(q.gql.Variables)["input"].(map[string]any)["threadId"].(string)
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
		t.Resolved, t.ResolvedBy = m.Name == "resolveReviewThread", ""
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
