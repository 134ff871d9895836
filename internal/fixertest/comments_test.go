package fixertest

import (
	"context"
	"fmt"
	"html"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/deliver"
	"github.com/agcgate/agc-action/ghapi"
	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/internal/testkit"
	"github.com/agcgate/agc-action/review"
)

// The pull request the linters look at: a JavaScript file and a Go
// package, each with a problem on a line the pull request does not change
// (no inline comment: the review body lists it with a link to its line)
// and problems on the lines it adds.
const (
	lookRepo = "octo/looks"
	lookSHA  = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

	lookESLintConfig = `module.exports = [{
  files: ["**/*.js"],
  languageOptions: { sourceType: "commonjs", ecmaVersion: 2022 },
  rules: { semi: "error", quotes: ["error", "double"], "no-var": "error", "prefer-const": "error",
    "no-unused-vars": "warn", eqeqeq: "error", "dot-notation": "error" },
}];
`
	lookJSBase = "// app\nvar legacy = 1;\nconsole.log(legacy);\n"
	lookJSHead = lookJSBase + "let count = 'x';\nconsole.log(count)\nconst unused = 2;\nconst o = {};\nif (count == \"y\") { console.log(o[\"key\"]); }\n"

	lookGoMod  = "module example.com/looks\n\ngo 1.22\n"
	lookGoBase = "package calc\n\nimport \"strings\"\n\n// Check checks.\nfunc Check(ok bool, s string) int {\n\tif ok == true {\n\t\treturn 1\n\t}\n\treturn len(strings.TrimSpace(s))\n}\n"
	lookGoHead = "package calc\n\nimport \"strings\"\n\n// Check checks.\nfunc Check(ok bool, s string) int {\n\tif ok == true {\n\t\treturn 1\n\t}\n\tif strings.Index(s, \"x\") != -1 {\n\t\treturn 2\n\t}\n\treturn len(strings.TrimSpace(s))\n}\n"
)

// TestLinterCommentsReadWell runs real eslint (with Microsoft's SARIF
// formatter) and staticcheck on a pull request, delivers their SARIF to
// the emulator as the Action does, and measures what people read: the
// median inline comment (hidden markers and the suggestion's lines left
// out) is at most 350 characters; no body holds an HTML entity for ASCII
// punctuation; every finding with a line that is not inline links to that
// line in the review body and the check run; no comment speaks the
// contract's words (§, "a named role"); every help link is https and shows
// its host.
func TestLinterCommentsReadWell(t *testing.T) {
	eslint := testkit.NodeFile(t, "eslint 10.15.0", "eslint", "bin", "eslint.js")
	formatter := testkit.NodeFile(t, "@microsoft/eslint-formatter-sarif 3.1.0", "@microsoft", "eslint-formatter-sarif", "sarif.js")
	staticcheck := testkit.File(t, "staticcheck", "bin", "staticcheck")
	dir := t.TempDir()
	for name, data := range map[string]string{"eslint.config.js": lookESLintConfig, "src/app.js": lookJSHead, "go.mod": lookGoMod, "calc/calc.go": lookGoHead} {
		write(t, filepath.Join(dir, name), data)
	}
	es := run(t, dir, true, "node", eslint, "--format", formatter, "src/app.js")
	sc := runEnv(t, dir, []string{"GOFLAGS=-mod=mod", "GOTOOLCHAIN=local"}, staticcheck, "-f", "sarif", "./...")
	p := &pr{dir: dir}
	gates := []agc.Doc{
		{Response: p.convert(t, "sarif", "eslint.sarif", es, "")},
		{Response: p.convert(t, "sarif", "staticcheck.sarif", sc, "")},
	}
	srv := ghtest.New(t, ghtest.Options{})
	srv.SetHead(lookRepo, 3, lookSHA, []ghtest.File{
		{Path: "src/app.js", Base: lookJSBase, Head: lookJSHead},
		{Path: "calc/calc.go", Base: lookGoBase, Head: lookGoHead},
	})
	c, err := ghapi.New(ghapi.Config{Owner: "octo", Repo: "looks", Token: ghtest.TokenActions, BaseURL: srv.URL(), GraphQLURL: srv.GraphQLURL()})
	if err != nil {
		t.Fatal(err)
	}
	links := review.Links{Server: "https://github.com", Repo: lookRepo, SHA: lookSHA}
	rep, err := deliver.Deliver(context.Background(), c, gates, deliver.Options{PR: 3, HeadSHA: lookSHA, Review: true, Check: true,
		Plan: review.PlanOptions{Head: dirReader(dir), Links: links}})
	if err != nil {
		t.Fatal(err)
	}
	var inline, bodies, summaries []string
	srv.Snapshot(func(prs map[string]*ghtest.PullRequest, runs []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		for _, cm := range prs[lookRepo+"#3"].Comments {
			inline = append(inline, cm.Body)
		}
		for _, r := range prs[lookRepo+"#3"].Reviews {
			bodies = append(bodies, r.Body)
		}
		for _, r := range runs {
			summaries = append(summaries, r.Summary)
		}
	})
	var placed []review.Placed
	for _, g := range gates {
		placed = append(placed, rep.Reviews[g.Response.Gate.ID].Placed...)
	}
	t.Logf("%d findings (eslint %d, staticcheck %d): %d inline comments, %d reviews, %d check runs",
		len(placed), len(gates[0].Response.Findings), len(gates[1].Response.Findings), len(inline), len(bodies), len(summaries))
	if len(gates[0].Response.Findings) < 5 || len(gates[1].Response.Findings) < 2 || len(inline) < 5 {
		t.Fatalf("too few findings or comments to measure")
	}

	lengths := make([]int, len(inline))
	for i, b := range inline {
		lengths[i] = shownLength(b)
	}
	slices.Sort(lengths)
	median := lengths[len(lengths)/2]
	if len(lengths)%2 == 0 {
		median = (lengths[len(lengths)/2-1] + lengths[len(lengths)/2]) / 2
	}
	t.Logf("inline comment lengths (markers and suggestion lines left out): %v, median %d", lengths, median)
	if median > 350 {
		t.Errorf("median inline comment is %d characters, want at most 350", median)
	}

	all := slices.Concat(inline, bodies, summaries)
	for _, b := range all {
		if e := asciiEntity(b); e != "" {
			t.Errorf("a body holds the entity %s for ASCII punctuation:\n%s", e, b)
		}
		for _, word := range []string{"§", "a named role", "delegate"} {
			if strings.Contains(b, word) {
				t.Errorf("a linter's body speaks the contract's words (%q):\n%s", word, b)
			}
		}
		checkHelpLinks(t, b)
	}
	for _, pl := range placed {
		if pl.Channel == review.ChannelInline || pl.Pos.Start == 0 {
			continue
		}
		want := "(" + links.Blob(pl.Pos.Path, pl.Pos.Start, pl.Pos.End) + ")"
		if !strings.Contains(strings.Join(bodies, "\n"), want) {
			t.Errorf("the review body has no link to %s, where %s is", want, pl.Finding.ID)
		}
		if !strings.Contains(strings.Join(summaries, "\n"), want) {
			t.Errorf("no check run summary links to %s, where %s is", want, pl.Finding.ID)
		}
	}
	for _, b := range inline {
		if !helpLink.MatchString(b) {
			t.Errorf("an inline comment does not link its rule's help:\n%s", b)
		}
	}
}

// runEnv is run with extra environment variables, for a linter that
// exits 0 on findings (staticcheck -f sarif).
func runEnv(t *testing.T, dir string, env []string, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var errb strings.Builder
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if _, exit := err.(*exec.ExitError); err != nil && !exit {
		t.Fatalf("%s %v: %v\n%s", name, args, err, errb.String())
	}
	return out
}

// shownLength counts the characters of a comment people read: after the
// hidden markers, without the lines of its suggestion (which are the
// code, not the comment).
func shownLength(body string) int {
	_, shown, ok := strings.Cut(body, "<!-- agc:end -->\n\n")
	if !ok {
		shown = body
	}
	if i := strings.Index(shown, "suggestion\n"); i >= 0 {
		fence := shown[strings.LastIndex(shown[:i], "\n")+1 : i]
		if j := strings.Index(shown[i:], "\n"+fence+"\n"); j >= 0 {
			shown = shown[:i+len("suggestion\n")] + shown[i+j+1:]
		}
	}
	return utf8.RuneCountInString(shown)
}

var entityRe = regexp.MustCompile(`&(#[0-9]+|#[xX][0-9a-fA-F]+|[a-zA-Z][a-zA-Z0-9]*);`)

// asciiEntity returns the first entity in s that stands for ASCII
// punctuation, or "".
func asciiEntity(s string) string {
	for _, e := range entityRe.FindAllString(s, -1) {
		d := html.UnescapeString(e)
		if r, n := utf8.DecodeRuneInString(d); n == len(d) && r < utf8.RuneSelf && unicode.IsPunct(r) || unicode.IsSymbol(r) && r < utf8.RuneSelf {
			return e
		}
	}
	return ""
}

// helpLink is a rule linked to its help page: a code span linked to an
// https URL, then the URL's host in parentheses.
var helpLink = regexp.MustCompile("\\[`[^`]+`\\]\\((https://[^)\\s]+)\\) \\(([^)]+)\\)")

// checkHelpLinks fails on a link in b that is not https, or a rule's help
// link whose shown host is not the URL's.
func checkHelpLinks(t *testing.T, b string) {
	t.Helper()
	for _, m := range regexp.MustCompile(`\]\(([^)\s]+)\)`).FindAllStringSubmatch(b, -1) {
		if !strings.HasPrefix(m[1], "https://") {
			t.Errorf("a link to %s is not https", m[1])
		}
	}
	for _, m := range helpLink.FindAllStringSubmatch(b, -1) {
		u, err := url.Parse(m[1])
		if err != nil || u.Hostname() != m[2] {
			t.Errorf("help link %s shows the host %q", m[1], m[2])
		}
	}
	if strings.Contains(b, "&#8203;") || strings.Contains(b, fmt.Sprintf("%c//", 0x200b)) && strings.Contains(b, "https:\u200b//") {
		t.Errorf("a help link is broken on purpose:\n%s", b)
	}
}
