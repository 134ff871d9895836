package peertest

import (
	"encoding/json"
	"strings"
	"testing"
)

// region is a SARIF region (§3.30); zero fields are left out.
type region struct{ StartLine, StartColumn, EndLine, EndColumn int }

func (r region) json() map[string]any {
	m := map[string]any{}
	for k, v := range map[string]int{"startLine": r.StartLine, "startColumn": r.StartColumn, "endLine": r.EndLine, "endColumn": r.EndColumn} {
		if v > 0 {
			m[k] = v
		}
	}
	return m
}

// fix replaces deleted in the result's file with inserted; a nil inserted
// leaves insertedContent out, which SARIF (§3.57.3) reads as a deletion.
type fix struct {
	deleted  region
	inserted *string
}

// result is one SARIF result of the peerlint tool.
type result struct {
	rule, message, path string
	at                  region
	fixes               []fix
}

func (r result) json() map[string]any {
	loc := map[string]any{"uri": r.path}
	m := map[string]any{
		"ruleId": r.rule, "level": "warning", "message": map[string]any{"text": r.message},
		"locations": []any{map[string]any{"physicalLocation": map[string]any{"artifactLocation": loc, "region": r.at.json()}}},
	}
	var fixes []any
	for _, f := range r.fixes {
		rep := map[string]any{"deletedRegion": f.deleted.json()}
		if f.inserted != nil {
			rep["insertedContent"] = map[string]any{"text": *f.inserted}
		}
		fixes = append(fixes, map[string]any{"description": map[string]any{"text": "fix " + r.rule},
			"artifactChanges": []any{map[string]any{"artifactLocation": loc, "replacements": []any{rep}}}})
	}
	if fixes != nil {
		m["fixes"] = fixes
	}
	return m
}

// sarifLog is a SARIF 2.1.0 log of one peerlint run with these results.
func sarifLog(t *testing.T, results ...result) []byte {
	t.Helper()
	var rs, rules []any
	seen := map[string]bool{}
	for _, r := range results {
		rs = append(rs, r.json())
		if !seen[r.rule] {
			seen[r.rule] = true
			rules = append(rules, map[string]any{"id": r.rule, "shortDescription": map[string]any{"text": "rule " + r.rule}})
		}
	}
	b, err := json.MarshalIndent(map[string]any{
		"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0",
		"runs": []any{map[string]any{"tool": map[string]any{"driver": map[string]any{"name": "peerlint", "version": "1.0.0", "rules": rules}}, "results": rs}},
	}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func ptr(s string) *string { return &s }

// suggestion reads the first ```suggestion block of a comment body as
// CommonMark 0.31 §4.5 (which GitHub follows) reads a fenced code block:
// the opening fence is a run of at least three backticks indented by at
// most three spaces, with the info string "suggestion"; the block ends at
// the first line that is a run of at least as many backticks, indented by
// at most three spaces and followed only by spaces or tabs, or at the end
// of the body. content holds the lines between, each with its newline.
func suggestion(body string) (content string, closed, found bool) {
	lines := strings.SplitAfter(body, "\n")
	for i, l := range lines {
		n, info, ok := fenceLine(l)
		if !ok || strings.TrimSpace(info) != "suggestion" {
			continue
		}
		var b strings.Builder
		for _, c := range lines[i+1:] {
			if m, rest, ok := fenceLine(c); ok && m >= n && strings.Trim(rest, " \t\n") == "" {
				return b.String(), true, true
			}
			b.WriteString(c)
		}
		return b.String(), false, true
	}
	return "", false, false
}

// fenceLine reports whether l starts, after at most three spaces, with a
// run of three or more backticks, and returns the run's length and the rest
// of the line.
func fenceLine(l string) (n int, rest string, ok bool) {
	s := strings.TrimLeft(l, " ")
	if len(l)-len(s) > 3 {
		return 0, "", false
	}
	for n < len(s) && s[n] == '`' {
		n++
	}
	return n, s[n:], n >= 3
}

func TestSuggestionReader(t *testing.T) {
	tests := []struct {
		body, content string
		closed, found bool
	}{
		{"text\n```suggestion\na\n```\n", "a\n", true, true},
		{"```suggestion\n```\n", "", true, true},
		{"```suggestion\n  ```\nb\n```\n", "", true, true},
		{"````suggestion\n  ```\nb\n````", "  ```\nb\n", true, true},
		{"```suggestion\n    ```\n```\n", "    ```\n", true, true},
		{"```suggestion\n  ```sh\n", "  ```sh\n", false, true},
		{"```go\nx\n```\n", "", false, false},
	}
	for _, tc := range tests {
		content, closed, found := suggestion(tc.body)
		if content != tc.content || closed != tc.closed || found != tc.found {
			t.Errorf("suggestion(%q) = %q, %v, %v; want %q, %v, %v", tc.body, content, closed, found, tc.content, tc.closed, tc.found)
		}
	}
}
