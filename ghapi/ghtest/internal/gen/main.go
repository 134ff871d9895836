// Command gen cuts the operations the emulator serves out of GitHub's
// OpenAPI description, keeping every component they reference, and records
// where the description came from. scripts/gen-openapi-subset.sh runs it.
// It reads the installed @octokit/openapi description under tools/ and
// writes the subset into ghapi/ghtest/openapi/.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

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

func main() {
	pkgDir := flag.String("pkg", "tools/node_modules/@octokit/openapi", "directory of the @octokit/openapi package")
	out := flag.String("o", "ghapi/ghtest/openapi/api.github.com.subset.json", "output file")
	flag.Parse()
	if err := run(*pkgDir, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(pkgDir, out string) error {
	version, err := packageVersion(filepath.Join(pkgDir, "package.json"))
	if err != nil {
		return err
	}
	src := filepath.Join(pkgDir, "generated", "api.github.com.json")
	full, err := readJSON(src)
	if err != nil {
		return err
	}
	sub, err := subset(full, operations, peerOperations)
	if err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	info, _ := sub["info"].(map[string]any)
	info["x-agc-source"] = map[string]any{
		"package":         "@octokit/openapi",
		"version":         version,
		"file":            "generated/api.github.com.json",
		"operations":      operations,
		"peer-operations": peerOperations,
		"note":            "cut by scripts/gen-openapi-subset.sh; media-type examples dropped, everything else referenced is kept",
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(sub); err != nil {
		return err
	}
	return os.WriteFile(out, buf.Bytes(), 0o644)
}

func packageVersion(path string) (string, error) {
	doc, err := readJSON(path)
	if err != nil {
		return "", err
	}
	v, ok := doc["version"].(string)
	if !ok {
		return "", fmt.Errorf("%s: no version", path)
	}
	return v, nil
}

func readJSON(path string) (map[string]any, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w (run scripts/setup.sh)", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return doc, nil
}

// subset returns the document with only ops and peer (marked x-agc-peer),
// their path-level parameters, and the components they reference
// (transitively).
func subset(full map[string]any, ops, peer []string) (map[string]any, error) {
	paths, _ := full["paths"].(map[string]any)
	outPaths := map[string]any{}
	for i, op := range slices.Concat(ops, peer) {
		method, path, _ := strings.Cut(op, " ")
		item, ok := paths[path].(map[string]any)
		if !ok {
			return nil, fmt.Errorf("no path %s", path)
		}
		o, ok := item[strings.ToLower(method)]
		if !ok {
			return nil, fmt.Errorf("no operation %s", op)
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
		if i >= len(ops) {
			o.(map[string]any)["x-agc-peer"] = true
		}
		dst[strings.ToLower(method)] = o
	}
	comps, _ := full["components"].(map[string]any)
	outComps := map[string]any{}
	var walk func(v any) error
	walk = func(v any) error {
		switch x := v.(type) {
		case map[string]any:
			if ref, ok := x["$ref"].(string); ok {
				section, name, _ := strings.Cut(strings.TrimPrefix(ref, "#/components/"), "/")
				from, _ := comps[section].(map[string]any)
				if !strings.HasPrefix(ref, "#/components/") || from[name] == nil {
					return fmt.Errorf("unsupported or dangling $ref %q", ref)
				}
				to, _ := outComps[section].(map[string]any)
				if to == nil {
					to = map[string]any{}
					outComps[section] = to
				}
				if to[name] == nil {
					to[name] = dropExamples(from[name])
					if err := walk(to[name]); err != nil {
						return err
					}
				}
			}
			for _, e := range x {
				if err := walk(e); err != nil {
					return err
				}
			}
		case []any:
			for _, e := range x {
				if err := walk(e); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(outPaths); err != nil {
		return nil, err
	}
	return map[string]any{
		"openapi":    full["openapi"],
		"info":       full["info"],
		"servers":    full["servers"],
		"paths":      outPaths,
		"components": outComps,
	}, nil
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
