package review

import (
	"bytes"
	"flag"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/internal/golden"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
)

var update = flag.Bool("update", false, "rewrite golden files")

// gfm renders GitHub-flavoured Markdown as goldmark does with its GFM
// extensions; raw HTML (<details>, our hidden markers) is kept, as GitHub
// keeps the HTML it allows.
var gfm = goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))

// looksLinks are the links of the pull request the goldens show.
var looksLinks = Links{Server: "https://github.com", Repo: "octo/looks", SHA: "4b825dc642cb6eb9a060e54bf8d69288fbee4904"}

const looksCalc = "package calc\n\nimport \"strings\"\n\nfunc Check(ok bool, s string) int {\n\tif ok == true {\n\t\treturn 1\n\t}\n\tif strings.Index(s, \"x\") != -1 {\n\t\treturn 2\n\t}\n\treturn 0\n}\n"

// linterFinding is a finding as package sarif makes it of staticcheck's
// S1003, with its fix.
func linterFinding() agc.Finding {
	return agc.Finding{ID: "staticcheck/S1003/calc/calc.go@96280f419f4d", Class: "S1003", Location: "calc/calc.go",
		What: `should use strings.Contains(s, "x") instead`, Why: "Rule S1003 of Staticcheck: Replace call to strings.Index with strings.Contains",
		Severity: agc.Advisory, Status: agc.StatusNew,
		Remedy: agc.Remedy{Kind: agc.RemedyPatch, Edits: []agc.Edit{{Path: "calc/calc.go", Find: "strings.Index(s, \"x\") != -1", Replace: "strings.Contains(s, \"x\")"}}},
		Check:  agc.Check{Kind: agc.CheckPreview},
		Unknown: []byte(`{"agc-action/sarif":{"level":"warning","uri":"calc/calc.go","region":{"startLine":9,"startColumn":5}},` +
			`"agc-action/helpUri":"https://staticcheck.dev/docs/checks#S1003"}`)}
}

// eslintFinding is eslint's no-unused-vars through its SARIF formatter:
// no fix, a help page.
func eslintFinding(line int, what string) agc.Finding {
	return agc.Finding{ID: fmt.Sprintf("eslint/no-unused-vars/src/app.js@%012d", line), Class: "no-unused-vars", Location: "src/app.js",
		What: what, Why: "Rule no-unused-vars of ESLint: Disallow unused variables", Severity: agc.Advisory, Status: agc.StatusNew,
		Remedy: agc.Remedy{Kind: agc.RemedyDelegate, Role: "author of the change", Authority: "rule no-unused-vars of ESLint (https://eslint.org/docs/latest/rules/no-unused-vars)"},
		Check:  agc.Check{Kind: agc.CheckPreview},
		Unknown: []byte(fmt.Sprintf(`{"agc-action/sarif":{"level":"warning","uri":"src/app.js","region":{"startLine":%d}},`+
			`"agc-action/helpUri":"https://eslint.org/docs/latest/rules/no-unused-vars"}`, line))}
}

// agcFinding is a gate's own finding with a patch and a command check.
func agcFinding() agc.Finding {
	f := finding("go-lint", "magic-number", "calc/calc.go:10", agc.Blocking)
	f.What, f.Why = "The result 2 has no name.", "Rule magic-number: a caller cannot tell what 2 means; name it."
	f.Remedy = agc.Remedy{Kind: agc.RemedyPatch, Edits: []agc.Edit{{Path: "calc/calc.go", Find: "return 2", Replace: "return FoundX"}}}
	f.Check = agc.Check{Kind: agc.CheckCommand, Run: "go vet ./calc/"}
	return f
}

// looksPR is the pull request the goldens are placed on: calc/calc.go
// adds lines 9-11; src/app.js adds line 4.
func looksPR() (map[string]*FileDiff, FileReader) {
	calc, _ := ParsePatch("@@ -6,3 +6,6 @@\n \t\treturn 1\n \t}\n+\tif strings.Index(s, \"x\") != -1 {\n+\t\treturn 2\n+\t}\n \treturn 0\n")
	app, _ := ParsePatch("@@ -2,2 +2,3 @@\n var legacy = 1;\n console.log(legacy);\n+const unused = 2;\n")
	return map[string]*FileDiff{
			"calc/calc.go": NewFileDiff("calc/calc.go", "modified", calc),
			"src/app.js":   NewFileDiff("src/app.js", "modified", app),
		}, filesAt{"calc/calc.go": looksCalc,
			"src/app.js": "// app\nvar legacy = 1;\nconsole.log(legacy);\nconst unused = 2;\n"}
}

// TestLooksGolden renders every kind of body people read (an inline
// comment of a linter and of a gate, a review body with its file
// sections, a check run's summary, a job summary, and one cut at its
// limit) as Markdown, the goldens scripts/screenshots.sh photographs, and
// holds the HTML goldmark's GFM makes of each to checkLooks.
func TestLooksGolden(t *testing.T) {
	diffs, head := looksPR()
	lint := response("staticcheck", agc.Allow, linterFinding())
	es := response("eslint", agc.Allow, eslintFinding(4, "'unused' is assigned a value but never used."), eslintFinding(2, "'legacy' is never reassigned. Use 'const' instead."))
	own := response("go-lint", agc.Block, agcFinding(), finding("go-lint", "bool-compare", "calc/calc.go:6", agc.Advisory), finding("go-lint", "naming", "calc/calc.go", agc.Advisory), finding("go-lint", "config", "Bash.command", agc.Advisory))
	own.Attempt.N = 2
	bodies := map[string]string{}
	inline := func(name string, r *agc.Response, i int) {
		ps := Place(r, diffs, head, FilterAdded)
		if ps[i].Channel != ChannelInline {
			t.Fatalf("%s: finding %d is %s, not inline", name, i, ps[i].Channel)
		}
		bodies[name], _ = InlineBody(r.Gate.ID, ps[i])
	}
	inline("inline-linter", lint, 0)
	inline("inline-linter-nofix", es, 0)
	inline("inline-gate", own, 0)
	for name, r := range map[string]*agc.Response{"review-body-linter": es, "review-body-gate": own} {
		ps := Place(r, diffs, head, FilterAdded)
		n := BodyCounts{}
		for _, p := range ps {
			if p.Channel == ChannelInline {
				n.Inline++
			}
		}
		bodies[name], _, _ = ReviewBody(r, n, byFile(ps), "", looksLinks)
	}
	bodies["check-summary-gate"] = PlanCheck(own, CheckOptions{Head: head, Links: looksLinks}).Summary
	bodies["job-summary"] = JobSummary(es, "", head, looksLinks, MaxJobSummary)
	var many []agc.Finding
	for i := 1; i <= 40; i++ {
		f := eslintFinding(i, fmt.Sprintf("'v%d' is assigned a value but never used.", i))
		f.ID += fmt.Sprint("-", i)
		many = append(many, f)
	}
	cut := response("eslint", agc.Allow, many...)
	bodies["check-summary-cut"], _ = gateTable(gateHead(cut, ""), cut.Gate.ID, summaryOrder(cut, head), looksLinks, 3000,
		"the SARIF file holds every finding")
	// A check run whose findings do not fit as tables, in little room: a
	// compact line each, the first ones linked, continued in the text,
	// the rest counted.
	rm := response("eslint", agc.Block, many...)
	placed := summaryOrder(rm, head)
	l := planLines(placed, nil, false, looksLinks, 2600, 900)
	bodies["check-summary-lines"] = gateHead(rm, checkNote("", checkCounts{listed: l.lacking, leftOut: len(placed) - l.lacking,
		holders: SARIFPlace{Path: "/home/runner/work/_temp/agc-1/agc.sarif"}.holders(false)})) + l.summary
	bodies["check-text-lines"] = l.text
	for name, md := range bodies {
		t.Run(name, func(t *testing.T) {
			golden.Check(t, filepath.Join("testdata", "looks", name+".md"), []byte(md), *update)
			var h bytes.Buffer
			if err := gfm.Convert([]byte(md), &h); err != nil {
				t.Fatal(err)
			}
			checkLooks(t, name, md, h.String())
		})
	}
	if n := len(bodies["check-summary-cut"]); n > 3000 || !strings.Contains(bodies["check-summary-cut"], "more findings are not in this table") {
		t.Errorf("the cut summary has %d bytes and says %q", n, bodies["check-summary-cut"])
	}
}

// checkLooks holds every body, and its HTML as goldmark's GFM renders it,
// to what the goldens promise: no entity for ordinary punctuation, no
// contract words in a linter's body, every <details> closed, every link
// https and into the repository only at the commit, and every table row
// with a line linked to that line. (The HTML is checked, not stored: it is
// the .md golden through a pinned renderer.)
func checkLooks(t *testing.T, name, md, h string) {
	t.Helper()
	for _, e := range []string{"&#58;", "&#46;", "&#39;", "&#40;", "&#8203;"} {
		if strings.Contains(md, e) {
			t.Errorf("%s holds the entity %s", name, e)
		}
	}
	if !strings.Contains(name, "gate") && (strings.Contains(md, "§") || strings.Contains(md, "a named role")) {
		t.Errorf("%s speaks the contract's words to a linter's reader", name)
	}
	if strings.Count(h, "<details>") != strings.Count(h, "</details>") {
		t.Errorf("%s leaves a <details> block open", name)
	}
	repo := looksLinks.Server + "/" + looksLinks.Repo + "/"
	for _, m := range hrefRE.FindAllStringSubmatch(h, -1) {
		if u := m[1]; !strings.HasPrefix(u, "https://") || strings.HasPrefix(u, repo) && !strings.HasPrefix(u, repo+"blob/"+looksLinks.SHA+"/") {
			t.Errorf("%s links to %s", name, u)
		}
	}
	for _, table := range tableRE.FindAllString(h, -1) {
		col := -1
		for i, th := range thRE.FindAllStringSubmatch(table, -1) {
			if th[1] == "Line" {
				col = i
			}
		}
		if col < 0 {
			continue
		}
		for _, tr := range trRE.FindAllStringSubmatch(table, -1) {
			tds := tdRE.FindAllStringSubmatch(tr[1], -1)
			if len(tds) <= col {
				t.Errorf("%s: a row has no line cell: %s", name, tr[1])
				continue
			}
			m := lineLinkRE.FindStringSubmatch(tds[col][1])
			if m == nil || !strings.HasPrefix(m[1], repo+"blob/"+looksLinks.SHA+"/") || m[2] != "file" && !strings.HasSuffix(m[1], "#L"+m[2]) && !strings.Contains(m[1], "#L"+m[2]+"-") {
				t.Errorf("%s: a row's line is not linked to it at the commit: %s", name, tds[col][1])
			}
		}
	}
}

var (
	hrefRE     = regexp.MustCompile(`href="([^"]*)"`)
	tableRE    = regexp.MustCompile(`(?s)<table>.*?</table>`)
	thRE       = regexp.MustCompile(`<th>(.*?)</th>`)
	trRE       = regexp.MustCompile(`(?s)<tr>\n(<td>.*?)</tr>`)
	tdRE       = regexp.MustCompile(`<td>(.*?)</td>`)
	lineLinkRE = regexp.MustCompile(`^<a href="([^"]*)">(\d+|file)</a>$`)
)
