package ghtest

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/internal/golden"
	"github.com/agcgate/agc-action/internal/testkit"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/formatter"
	"github.com/vektah/gqlparser/v2/parser"
)

var update = flag.Bool("update", false, "cut openapi/ and graphql/ anew from the installed packages")

// operations are the REST operations ghapi uses, as METHOD PATH.
var operations = []string{
	"POST /repos/{owner}/{repo}/code-scanning/sarifs",
	"GET /repos/{owner}/{repo}/code-scanning/sarifs/{sarif_id}",
	"GET /repos/{owner}/{repo}/pulls/{pull_number}",
	"GET /repos/{owner}/{repo}/pulls/{pull_number}/files",
	"GET /repos/{owner}/{repo}/pulls/{pull_number}/commits",
	"GET /repos/{owner}/{repo}/pulls/{pull_number}/comments",
	"POST /repos/{owner}/{repo}/pulls/{pull_number}/comments",
	"PATCH /repos/{owner}/{repo}/pulls/comments/{comment_id}",
	"GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews",
	"POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews",
	"PUT /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}",
	"POST /repos/{owner}/{repo}/check-runs",
	"PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}",
	"GET /repos/{owner}/{repo}/commits/{ref}/check-runs",
	"GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls",
	"POST /repos/{owner}/{repo}/statuses/{sha}",
	"GET /repos/{owner}/{repo}/collaborators/{username}/permission",
	"GET /repos/{owner}/{repo}/issues/{issue_number}/comments",
	"POST /repos/{owner}/{repo}/issues/{issue_number}/comments",
}

// peerOperations are the operations a peer tool (reviewdog) uses beside
// those of ghapi. They are marked x-agc-peer: the emulator serves them only
// through a PeerFront, so ghapi's own tests still fail on them.
var peerOperations = []string{
	"GET /repos/{owner}/{repo}",
	"DELETE /repos/{owner}/{repo}/pulls/comments/{comment_id}",
}

// TestOpenAPISubset cuts the operations the emulator serves out of GitHub's
// OpenAPI description as @octokit/openapi installs it, with every component
// they reference and where they came from, and checks that the committed
// openapi/api.github.com.subset.json is that cut (-update writes it).
func TestOpenAPISubset(t *testing.T) {
	dir := filepath.Dir(testkit.NodeFile(t, "@octokit/openapi 23.0.2", "@octokit", "openapi", "package.json"))
	var pkg struct{ Version string }
	readJSON(t, filepath.Join(dir, "package.json"), &pkg)
	var full map[string]any
	readJSON(t, filepath.Join(dir, "generated", "api.github.com.json"), &full)
	sub := subset(t, full)
	sub["info"].(map[string]any)["x-agc-source"] = map[string]any{
		"package":         "@octokit/openapi",
		"version":         pkg.Version,
		"file":            "generated/api.github.com.json",
		"operations":      operations,
		"peer-operations": peerOperations,
		"note":            "cut by ghtest's TestOpenAPISubset; media-type examples dropped, everything else referenced is kept",
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(sub); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "openapi/api.github.com.subset.json", buf.Bytes(), *update)
}

func readJSON(t *testing.T, path string, v any) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// subset is the document with only operations and peerOperations (marked
// x-agc-peer), their path-level parameters, and the components they
// reference (transitively).
func subset(t *testing.T, full map[string]any) map[string]any {
	paths, _ := full["paths"].(map[string]any)
	outPaths := map[string]any{}
	for i, op := range slices.Concat(operations, peerOperations) {
		method, path, _ := strings.Cut(op, " ")
		item, _ := paths[path].(map[string]any)
		o, ok := item[strings.ToLower(method)]
		if !ok {
			t.Fatalf("no operation %s", op)
		}
		dst, _ := outPaths[path].(map[string]any)
		if dst == nil {
			dst = map[string]any{}
			if p, ok := item["parameters"]; ok {
				dst["parameters"] = p
			}
			outPaths[path] = dst
		}
		o = dropExamples(o)
		if i >= len(operations) {
			o.(map[string]any)["x-agc-peer"] = true
		}
		dst[strings.ToLower(method)] = o
	}
	comps, _ := full["components"].(map[string]any)
	outComps := map[string]any{}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if ref, ok := x["$ref"].(string); ok {
				section, name, _ := strings.Cut(strings.TrimPrefix(ref, "#/components/"), "/")
				from, _ := comps[section].(map[string]any)
				if !strings.HasPrefix(ref, "#/components/") || from[name] == nil {
					t.Fatalf("unsupported or dangling $ref %q", ref)
				}
				to, _ := outComps[section].(map[string]any)
				if to == nil {
					to = map[string]any{}
					outComps[section] = to
				}
				if to[name] == nil {
					to[name] = dropExamples(from[name])
					walk(to[name])
				}
			}
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(outPaths)
	return map[string]any{"openapi": full["openapi"], "info": full["info"], "servers": full["servers"],
		"paths": outPaths, "components": outComps}
}

// dropExamples removes "examples" maps of media types and parameters: they
// only reference components/examples, which validation never reads.
func dropExamples(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if _, isMap := e.(map[string]any); k != "examples" || !isMap {
				out[k] = dropExamples(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = dropExamples(e)
		}
		return out
	}
	return v
}

// graphqlFields are the GraphQL types and fields ghapi and the emulator
// use ("*": every field of an input type).
var graphqlFields = map[string][]string{
	"Query":                              {"repository"},
	"Repository":                         {"pullRequest"},
	"PullRequest":                        {"reviewThreads"},
	"PullRequestReviewThreadConnection":  {"pageInfo", "nodes", "totalCount"},
	"PageInfo":                           {"hasNextPage", "endCursor"},
	"PullRequestReviewThread":            {"id", "isResolved", "resolvedBy", "isOutdated", "path", "line", "comments"},
	"User":                               {"login"},
	"Actor":                              {"login"},
	"PullRequestReviewCommentConnection": {"nodes", "totalCount"},
	"PullRequestReviewComment":           {"id", "databaseId", "body", "author"},
	"Mutation":                           {"resolveReviewThread", "unresolveReviewThread"},
	"ResolveReviewThreadInput":           {"*"},
	"UnresolveReviewThreadInput":         {"*"},
	"ResolveReviewThreadPayload":         {"clientMutationId", "thread"},
	"UnresolveReviewThreadPayload":       {"clientMutationId", "thread"},
}

// TestGraphQLSubset cuts the types and fields of graphqlFields out of
// GitHub's GraphQL schema as @octokit/graphql-schema installs it, without
// directives and interfaces outside the cut, and checks that the committed
// graphql/github.subset.graphql is that cut (-update writes it).
func TestGraphQLSubset(t *testing.T) {
	dir := filepath.Dir(testkit.NodeFile(t, "@octokit/graphql-schema 15.26.1", "@octokit", "graphql-schema", "package.json"))
	var pkg struct{ Version string }
	readJSON(t, filepath.Join(dir, "package.json"), &pkg)
	path := filepath.Join(dir, "schema.graphql")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	full, err := parser.ParseSchema(&ast.Source{Name: path, Input: string(src)})
	if err != nil {
		t.Fatal(err)
	}
	doc := &ast.SchemaDocument{}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range graphqlFields {
			yield(k)
		}
	}) {
		def := *full.Definitions.ForName(name)
		def.Directives, def.Fields = nil, nil
		def.Interfaces = slices.DeleteFunc(slices.Clone(def.Interfaces), func(i string) bool { return graphqlFields[i] == nil })
		for _, f := range full.Definitions.ForName(name).Fields {
			if want := graphqlFields[name]; want[0] == "*" || slices.Contains(want, f.Name) {
				f := *f
				f.Directives, f.Arguments = nil, slices.Clone(f.Arguments)
				for i, a := range f.Arguments {
					a := *a
					a.Directives, f.Arguments[i] = nil, &a
				}
				def.Fields = append(def.Fields, &f)
			}
		}
		if len(def.Fields) == 0 {
			t.Fatalf("%s: no field of %v", name, graphqlFields[name])
		}
		doc.Definitions = append(doc.Definitions, &def)
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "# Cut from @octokit/graphql-schema %s, schema.graphql, by ghtest's TestGraphQLSubset.\n\n", pkg.Version)
	formatter.NewFormatter(&buf, formatter.WithIndent("  ")).FormatSchemaDocument(doc)
	golden.Check(t, "graphql/github.subset.graphql", buf.Bytes(), *update)
}
