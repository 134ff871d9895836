package ghtest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// GraphQL is not in the OpenAPI description and no GraphQL schema is
// installed, so the emulator checks GraphQL requests structurally: a named
// query or mutation whose root field is one it serves, every field name in
// it one that exists on those types in GitHub's schema, and the variables
// each root field needs, with the right JSON types.

var graphqlNames = map[string]bool{
	// operation syntax and types
	"query": true, "mutation": true, "String": true, "Int": true, "ID": true, "Boolean": true,
	// Query.repository → PullRequest.reviewThreads → PullRequestReviewThread
	"repository": true, "owner": true, "name": true, "pullRequest": true, "number": true,
	"reviewThreads": true, "first": true, "after": true, "last": true, "before": true,
	"pageInfo": true, "hasNextPage": true, "endCursor": true, "nodes": true, "totalCount": true,
	"id": true, "isResolved": true, "isOutdated": true, "path": true, "line": true, "comments": true,
	"databaseId": true, "author": true, "login": true, "body": true,
	// Mutation.resolveReviewThread / unresolveReviewThread
	"resolveReviewThread": true, "unresolveReviewThread": true, "input": true, "threadId": true,
	"thread": true, "clientMutationId": true, "resolvedBy": true,
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

func (s *Server) serveGraphQL(w http.ResponseWriter, r *http.Request, body []byte) {
	if r.Method != http.MethodPost {
		s.t.Errorf("ghtest: GraphQL wants POST, got %s", r.Method)
		writeError(w, http.StatusNotFound, "Not Found")
		return
	}
	var q gqlRequest
	if err := json.Unmarshal(body, &q); err != nil {
		s.t.Errorf("ghtest: GraphQL body: %v", err)
		writeError(w, http.StatusBadRequest, "Problems parsing JSON")
		return
	}
	m := gqlOp.FindStringSubmatch(q.Query)
	s.mu.Lock()
	defer s.mu.Unlock()
	if m == nil {
		s.counts["graphql"]++
		s.t.Errorf("ghtest: GraphQL request is not a named query or mutation: %q", q.Query)
		gqlErrors(w, "Parse error")
		return
	}
	s.counts["graphql/"+m[2]]++
	if err := checkGraphQL(q, m[2]); err != nil {
		s.t.Errorf("ghtest: GraphQL %s: %v", m[2], err)
		gqlErrors(w, err.Error())
		return
	}
	who, ok := s.tokens[token(r)]
	if !ok {
		writeError(w, http.StatusUnauthorized, "Bad credentials")
		return
	}
	defer s.answered("graphql/" + m[2])
	if f, ok := s.takeFault("graphql"); ok {
		writeFault(w, f, time.Now())
		return
	}
	if m[1] == "mutation" {
		if f, ok := s.writeFault(); ok {
			writeFault(w, f, time.Now())
			return
		}
	}
	if m[1] == "mutation" && who.ReadOnly {
		writeJSON(w, http.StatusOK, map[string]any{"data": nil, "errors": []any{
			map[string]any{"type": "FORBIDDEN", "message": "Resource not accessible by integration"}}})
		return
	}
	if m[1] == "mutation" {
		s.gqlResolve(w, q, who)
		return
	}
	s.gqlThreads(w, q)
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

func gqlErrors(w http.ResponseWriter, msg string) {
	writeJSON(w, http.StatusOK, map[string]any{"errors": []any{map[string]any{"message": msg}}})
}

func (s *Server) gqlThreads(w http.ResponseWriter, q gqlRequest) {
	repo := q.Variables["owner"].(string) + "/" + q.Variables["name"].(string)
	pr := s.prs[fmt.Sprintf("%s#%d", repo, int(q.Variables["number"].(float64)))]
	if pr == nil {
		writeJSON(w, http.StatusOK, map[string]any{"data": map[string]any{"repository": map[string]any{"pullRequest": nil}},
			"errors": []any{map[string]any{"type": "NOT_FOUND", "message": "Could not resolve to a PullRequest."}}})
		return
	}
	first, _ := strconv.Atoi(gqlFirst.FindStringSubmatch(q.Query)[1])
	start := 0
	if c, ok := q.Variables["cursor"].(string); ok && c != "" {
		start = decodeCursor(c)
	}
	start = min(start, len(pr.Threads))
	end := min(start+first, len(pr.Threads))
	var nodes []any
	for _, t := range pr.Threads[start:end] {
		nodes = append(nodes, s.threadJSON(pr, t))
	}
	conn := map[string]any{
		"totalCount": len(pr.Threads), "nodes": nonNil(nodes),
		"pageInfo": map[string]any{"hasNextPage": end < len(pr.Threads), "endCursor": encodeCursor(end)},
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": map[string]any{"repository": map[string]any{
		"pullRequest": map[string]any{"reviewThreads": conn}}}})
}

func (s *Server) threadJSON(pr *PullRequest, t *Thread) map[string]any {
	var cs []any
	for _, id := range t.CommentIDs {
		c := pr.comment(id)
		cs = append(cs, map[string]any{"id": c.NodeID, "databaseId": c.ID, "body": c.Body,
			"author": map[string]any{"login": strings.TrimSuffix(c.User.Login, "[bot]")}})
	}
	first := pr.comment(t.CommentIDs[0])
	var resolvedBy any
	if t.Resolved {
		resolvedBy = map[string]any{"login": t.ResolvedBy}
	}
	return map[string]any{"id": t.ID, "isResolved": t.Resolved, "resolvedBy": resolvedBy, "isOutdated": t.Outdated, "path": first.Path,
		"line": nullIfZero(first.Line), "comments": map[string]any{"totalCount": len(cs), "nodes": cs}}
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
func (s *Server) gqlResolve(w http.ResponseWriter, q gqlRequest, who Identity) {
	data := map[string]any{}
	var errs []any
	for _, m := range gqlResolveCall.FindAllStringSubmatch(q.Query, -1) {
		key := m[1]
		if key == "" {
			key = rootField(m[2] == "")
		}
		id := q.Variables[m[3]].(string)
		t := s.findThread(id)
		if t == nil {
			data[key] = nil
			errs = append(errs, map[string]any{"type": "NOT_FOUND", "path": []string{key},
				"message": "Could not resolve to a node with the global id of '" + id + "'"})
			continue
		}
		t.Resolved, t.ResolvedBy = m[2] == "", ""
		if t.Resolved {
			t.ResolvedBy = strings.TrimSuffix(who.Login, "[bot]")
		}
		data[key] = map[string]any{"thread": map[string]any{"id": t.ID, "isResolved": t.Resolved}}
	}
	out := map[string]any{"data": data}
	if errs != nil {
		out["errors"] = errs
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) findThread(id string) *Thread {
	for _, pr := range s.prs {
		if t := pr.thread(id); t != nil {
			return t
		}
	}
	return nil
}

func rootField(resolve bool) string {
	if resolve {
		return "resolveReviewThread"
	}
	return "unresolveReviewThread"
}
