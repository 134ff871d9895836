package action

import (
	"strings"
	"testing"

	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/internal/logsafe/logsafetest"
	"github.com/agcgate/agc-action/internal/prfixture"
)

// The judged party's text, as issue 11 (case 4) tried it.
const (
	hostilePath = "src/x\n::error file=README.md,line=1::INJECTED\n::stop-commands::TOK\ny.go"
	hostileRule = "R2 ##[stop-commands]INJ"
)

func noForeign(t *testing.T, what, log string) {
	t.Helper()
	if bad := logsafetest.Foreign(log); len(bad) > 0 {
		t.Errorf("%s: the runner takes these lines as commands:\n  %s\nin:\n%s", what, strings.Join(bad, "\n  "), log)
	}
}

// TestRunnerAttackNewlinePathThroughCarryLog: the pull request adds, in
// the scope, a file named with line breaks; the carry step names it in its
// log, and no line of the log is a command of the file's.
func TestRunnerAttackNewlinePathThroughCarryLog(t *testing.T) {
	p := newCarryPR(t)
	gateStep := map[string]string{"agc": "code-review=review.json", "scope": "src/**", "fail-on": "never"}
	carryStep := map[string]string{"carry": "true", "gate": "code-review", "scope": "src/**", "fail-on": "never"}
	ev := p.push("src/a.go", "package a // the change under review\n")
	p.review()
	if code, _, log := p.action(ev, gateStep); code != cmdenv.ExitOK {
		t.Fatalf("the gate's run: exit %d\n%s", code, log)
	}
	ev = p.push(hostilePath, "package x\n")
	_, out, log := p.action(ev, carryStep)
	if out["carried"] != "false" || !strings.Contains(log, "INJECTED") {
		t.Fatalf("the new file must void the verdict and be named: %v\n%s", out, log)
	}
	noForeign(t, "the carry step's log", log)
}

// TestRunnerAttackRuleIDThroughPreview: a SARIF rule id in the legacy
// command form, printed in the request dumps of preview and dry-run.
func TestRunnerAttackRuleIDThroughPreview(t *testing.T) {
	for _, mode := range []string{"preview", "dry-run"} {
		t.Run(mode, func(t *testing.T) {
			srv, root := prfixture.Setup(t)
			log := `{"version":"2.1.0","$schema":"https://json.schemastore.org/sarif-2.1.0.json","runs":[{"tool":{"driver":{"name":"lint",
 "rules":[{"id":"` + hostileRule + `","shortDescription":{"text":"` + hostileRule + `"},"defaultConfiguration":{"level":"error"}}]}},
 "results":[{"ruleId":"` + hostileRule + `","message":{"text":"db.Ping is unchecked"},
  "locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/store/db.go"},"region":{"startLine":5}}}]}]}]}`
			writeFile(t, root, "lint.sarif", []byte(log))
			r := newActionRunner(t, srv, root, "pull_request", prfixture.Event).input("sarif", "lint.sarif").input(mode, "true").input("fail-on", "never")
			code, stdout := r.run()
			if code != cmdenv.ExitOK || !strings.Contains(stdout, "INJ") || !strings.Contains(stdout, "dry-run request") {
				t.Fatalf("exit %d, the rule id is not in the dump:\n%s", code, stdout)
			}
			if n := writes(srv); n != 0 {
				t.Errorf("%s wrote %d times", mode, n)
			}
			noForeign(t, mode, stdout)
		})
	}
}
