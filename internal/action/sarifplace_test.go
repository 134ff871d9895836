package action

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/internal/agctest"
	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/internal/prfixture"
)

// TestActionCheckRunSaysWhereTheRestIs (issue 24): a gate's check run
// that has no room for every finding the review lacks names where they
// are: the Action's sarif-file output, by the path the step outputs, and
// code scanning only when upload-sarif is on.
func TestActionCheckRunSaysWhereTheRestIs(t *testing.T) {
	srv, root := prfixture.Setup(t)
	var fs []agc.Finding
	for i := range 3000 {
		f := agctest.Finding("wide", fmt.Sprintf("f%04d", i), fmt.Sprintf("lib/m%04d/x.go:1", i), agc.Advisory)
		f.What = strings.Repeat("A message of a linter's usual length, and then some. ", 3)
		fs = append(fs, f)
	}
	data, _ := agc.Encode(agctest.Response("wide", agc.Block, fs...))
	writeFile(t, root, "agc-out/wide.json", data)
	r := newActionRunner(t, srv, root, "pull_request", prfixture.Event).input("agc", "agc-out/*.json").input("fail-on", "never")
	code, stdout := r.run()
	if code != cmdenv.ExitOK {
		t.Fatalf("exit %d\n%.3000s", code, stdout)
	}
	run := runsOn(srv, prfixture.HeadSHA)["agc/wide"]
	if run == nil {
		t.Fatal("no check run agc/wide")
	}
	sarifFile := r.outputs()["sarif-file"]
	m := regexp.MustCompile(`(\d+) findings are not listed in this check run`).FindStringSubmatch(run.Summary)
	if m == nil || sarifFile == "" || !strings.Contains(run.Summary, "the Action's `sarif-file` output (`"+sarifFile+"` on the runner") {
		t.Errorf("the check run does not count what it leaves out and name the sarif-file output %q:\n%.1500s", sarifFile, run.Summary)
	}
	if strings.Contains(strings.ToLower(run.Summary+run.Text), "code scanning") {
		t.Errorf("the check run names code scanning, but upload-sarif is off")
	}
	if strings.Contains(r.summaryText(), "code scanning") {
		t.Errorf("the job summary names code scanning, but upload-sarif is off")
	}
}
