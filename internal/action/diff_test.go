package action

import (
	"strings"
	"testing"

	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/internal/prfixture"
)

// fixerDiff is what git diff shows after a fixer renamed dbUrl, on a line
// the pull request adds.
const fixerDiff = "diff --git a/src/store/db.go b/src/store/db.go\n--- a/src/store/db.go\n+++ b/src/store/db.go\n" +
	"@@ -7,3 +7,3 @@\n }\n \n-var dbUrl = \"x\"\n+var dbURL = \"x\"\n"

// TestActionDiffInput: a diff: line, paired as agc and sarif lines are,
// is a gate whose hunk is a one-click suggestion on the PR's line.
func TestActionDiffInput(t *testing.T) {
	srv, root := prfixture.Setup(t)
	writeFile(t, root, "fix.diff", []byte(fixerDiff))
	r := newActionRunner(t, srv, root, "pull_request", prfixture.Event).input("diff", "renamer=fix.diff")
	code, stdout := r.run()
	if code != cmdenv.ExitFail || strings.Contains(stdout, "pairs its files with no gate") {
		t.Fatalf("exit %d (want 1: the hunk blocks)\n%s", code, stdout)
	}
	runs := runsOn(srv, prfixture.HeadSHA)
	if run := runs["agc/renamer"]; run == nil || run.Conclusion != "failure" {
		t.Fatalf("check runs %v", runs)
	}
	srv.Snapshot(func(prs map[string]*ghtest.PullRequest, _ []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		cs := prs[prfixture.Repo+"#2"].Comments
		if len(cs) != 1 || cs[0].Line != 9 || !strings.Contains(cs[0].Body, "```suggestion\nvar dbURL = \"x\"\n```") {
			t.Errorf("comments %+v", cs)
		}
	})

	// Unpaired: the gate is named after the file, with a warning.
	srv, root = prfixture.Setup(t)
	writeFile(t, root, "gofmt.diff", []byte(fixerDiff))
	r = newActionRunner(t, srv, root, "pull_request", prfixture.Event).input("diff", "gofmt.diff").input("fail-on", "never")
	if code, stdout := r.run(); code != cmdenv.ExitOK || !strings.Contains(stdout, "pairs its files with no gate") {
		t.Fatalf("exit %d\n%s", code, stdout)
	}
	if runs := runsOn(srv, prfixture.HeadSHA); runs["agc/gofmt"] == nil {
		t.Fatalf("check runs %v", runs)
	}
}

// TestActionRDJSONOnAnAgcLine: eslint's rdjson, paired on an agc line,
// is read through the workspace, so its fix is a suggestion; the gate is
// the paired one whatever source the diagnostics name.
func TestActionRDJSONOnAnAgcLine(t *testing.T) {
	srv, root := prfixture.Setup(t)
	rdjson := `{"source":{"name":"eslint"},"diagnostics":[{"message":"Identifier 'dbUrl' is not in camel case.",
	  "location":{"path":"` + root + `/src/store/db.go","range":{"start":{"line":9,"column":5},"end":{"line":9,"column":10}}},
	  "severity":"ERROR","code":{"value":"camelcase"},
	  "suggestions":[{"range":{"start":{"line":9,"column":7},"end":{"line":9,"column":10}},"text":"URL"}]}]}`
	writeFile(t, root, "eslint.rdjson", []byte(rdjson))
	r := newActionRunner(t, srv, root, "pull_request", prfixture.Event).input("agc", "lint=eslint.rdjson")
	if code, stdout := r.run(); code != cmdenv.ExitFail {
		t.Fatalf("exit %d\n%s", code, stdout)
	}
	if runs := runsOn(srv, prfixture.HeadSHA); runs["agc/lint"] == nil || runs["agc/eslint"] != nil {
		t.Fatalf("check runs %v", runs)
	}
	srv.Snapshot(func(prs map[string]*ghtest.PullRequest, _ []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		cs := prs[prfixture.Repo+"#2"].Comments
		if len(cs) != 1 || cs[0].Line != 9 || !strings.Contains(cs[0].Body, "```suggestion\nvar dbURL = \"x\"\n```") {
			t.Errorf("comments %+v", cs)
		}
	})
}
