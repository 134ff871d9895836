package action

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/internal/prfixture"
	"github.com/agcgate/agc-action/internal/testkit"
	"github.com/agcgate/agc-action/review"
	"github.com/agcgate/agc-action/sarif"
	"github.com/google/go-github/v62/github"
)

// writeFile writes data to root/name, making its directory.
func writeFile(t testing.TB, root, name string, data []byte) {
	t.Helper()
	p := filepath.Join(root, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// twoGates is the agent's one answer file of issue 11, case 3: gate
// code-review blocks, and the same file says gate secrets allows.
func twoGates(t *testing.T) []byte {
	resp := func(id, verdict string) *agc.Response {
		r := &agc.Response{AGC: agc.Version, Gate: agc.Gate{ID: id, Kind: agc.Judgment, Version: "1"},
			Subject: agc.Subject{Kind: agc.SubjectPullRequest, Fingerprint: "sha256:agent", Scope: []string{"src/**"}},
			Verdict: verdict, Coverage: agc.Coverage{Complete: true, Classes: []string{"naming"}}, Attempt: agc.Attempt{N: 1, Budget: 3},
			Findings: []agc.Finding{}}
		if verdict == agc.Block {
			r.Findings = []agc.Finding{{ID: id + "/naming/src/a.go#a", Class: "naming", Location: "src/a.go#a",
				What: "Package a is badly named.", Why: "Rule naming.", Severity: agc.Blocking, Status: agc.StatusNew,
				Remedy: agc.Remedy{Kind: agc.RemedyDelegate, Role: "author"},
				Check:  agc.Check{Kind: agc.CheckCondition, Condition: "The package has a telling name.", Run: "go vet ./..."}}}
		}
		return r
	}
	var raws []json.RawMessage
	for _, r := range []*agc.Response{resp("code-review", agc.Block), resp("secrets", agc.Allow)} {
		b, err := agc.Encode(r)
		if err != nil {
			t.Fatal(err)
		}
		raws = append(raws, b)
	}
	data, err := json.MarshalIndent(raws, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// countRuns counts the check runs named name on sha.
func countRuns(srv *ghtest.Server, sha, name string) int {
	n := 0
	srv.Snapshot(func(_ map[string]*ghtest.PullRequest, runs []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		for _, r := range runs {
			if r.HeadSHA == sha && r.Name == name {
				n++
			}
		}
	})
	return n
}

// TestActionTwoGatesFile is issue 11, case 3, as the attack: one answer
// file answers code-review (block) and secrets (allow). Unpaired, both are
// posted as before, with a warning, but neither is bound, so the next push
// cannot carry agc/secrets. Paired with code-review, the file posts no
// agc/secrets at all (with or without gate: code-review), agc-validate
// fails naming it, and only code-review is carried.
func TestActionTwoGatesFile(t *testing.T) {
	const scope = "src/**"
	t.Run("unpaired", func(t *testing.T) {
		p := newCarryPR(t)
		ev := p.push("src/a.go", "package a // the change under review\n")
		writeFile(t, p.repo.Dir, "review.json", twoGates(t))
		_, _, log := p.action(ev, map[string]string{"agc": "review.json", "gate": "code-review", "scope": scope, "fail-on": "never"})
		if !strings.Contains(log, `line "review.json" pairs its files with no gate`) || !strings.Contains(log, "GATE-ID=review.json") {
			t.Errorf("an unpaired line must warn and recommend pairing:\n%s", log)
		}
		ev = p.push("docs/README.md", "# docs, reworded\n")
		_, out, log := p.action(ev, map[string]string{"carry": "true", "gate": "secrets", "scope": scope, "fail-on": "never"})
		if out["carried"] == "true" || countRuns(p.srv, p.head, "agc/secrets") != 0 {
			t.Fatalf("agc/secrets from an unpaired answer file was carried to %s: %v\n%s", p.head[:7], out, log)
		}
	})
	for _, withGate := range []bool{false, true} {
		name := "paired"
		if withGate {
			name = "paired with gate: code-review"
		}
		t.Run(name, func(t *testing.T) {
			p := newCarryPR(t)
			ev := p.push("src/a.go", "package a // the change under review\n")
			h0 := p.head
			writeFile(t, p.repo.Dir, "review.json", twoGates(t))
			in := map[string]string{"agc": "code-review=review.json", "scope": scope}
			if withGate {
				in["gate"] = "code-review"
			}
			code, out, log := p.action(ev, in)
			if code != cmdenv.ExitFail || out["verdict"] != "block" {
				t.Fatalf("exit %d %v\n%s", code, out, log)
			}
			if n := countRuns(p.srv, h0, "agc/secrets"); n != 0 {
				t.Fatalf("the file paired with code-review posted %d agc/secrets check runs", n)
			}
			if r := p.runOn(h0); r == nil || r.Conclusion != "failure" {
				t.Fatalf("agc/code-review: %+v", r)
			}
			validatorSays(t, p.srv, h0, "action.pairing", "review.json#/1/gate/id", "pairs this file with gate code-review", "this answer is for gate secrets")
			if strings.Contains(log, "pairs its files with no gate") {
				t.Errorf("a paired line is not warned about:\n%s", log)
			}

			ev = p.push("docs/README.md", "# docs, reworded\n")
			_, out, log = p.action(ev, map[string]string{"carry": "true", "gate": "code-review\nsecrets", "scope": scope, "fail-on": "never"})
			if countRuns(p.srv, p.head, "agc/secrets") != 0 || p.runOn(p.head) == nil || !strings.Contains(log, "carry code-review: ") {
				t.Fatalf("only the paired gate may be carried to %s: %v\n%s", p.head[:7], out, log)
			}
			if out["carried"] != "false" {
				t.Errorf("secrets was not carried, so not every gate was: %v", out)
			}
		})
	}
	t.Run("gate paired with files of its own", func(t *testing.T) {
		// The secrets scanner's log is paired with secrets; the agent's
		// file is not paired, and its secrets answer must not stand in.
		srv, root := prfixture.Setup(t)
		writeFile(t, root, "review.json", twoGates(t))
		writeFile(t, root, "gitleaks.sarif", []byte(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"gitleaks"}},"results":[
			{"ruleId":"aws-key","level":"error","message":{"text":"An AWS key."},
			 "locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/store/db.go"},"region":{"startLine":9}}}]}]}]}`))
		r := newActionRunner(t, srv, root, "pull_request", prfixture.Event).
			input("agc", "review.json").input("sarif", "secrets=gitleaks.sarif")
		code, stdout := r.run()
		if code != cmdenv.ExitFail {
			t.Fatalf("exit %d\n%s", code, stdout)
		}
		if n := countRuns(srv, prfixture.HeadSHA, "agc/secrets"); n != 1 {
			t.Fatalf("%d agc/secrets check runs, want the scanner's one", n)
		}
		runs := runsOn(srv, prfixture.HeadSHA)
		if s := runs["agc/secrets"]; s.Conclusion != "failure" {
			t.Errorf("agc/secrets must be the scanner's block, not the agent's allow: %+v", s)
		}
		validatorSays(t, srv, prfixture.HeadSHA, "action.pairing", "review.json#/1/gate/id", "pairs gate secrets with files of its own")
		if runs["agc/gitleaks"] != nil {
			t.Errorf("a paired log is its gate, whatever its tool is named")
		}
	})
}

// readBack is the answer a check run embeds.
func readBack(t *testing.T, run *ghtest.CheckRun) *agc.Response {
	t.Helper()
	raw, err := review.ReadBackRaw(&github.CheckRun{Output: &github.CheckRunOutput{Text: &run.Text}})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := agc.Decode("check run", raw, agc.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// validatorSays returns agc/agc-validate's findings of class rule on sha,
// each as "LOCATION: WHAT", and fails the test unless that check run
// failed and one of them holds every one of want.
func validatorSays(t *testing.T, srv *ghtest.Server, sha, rule string, want ...string) []string {
	t.Helper()
	v := runsOn(srv, sha)["agc/agc-validate"]
	if v == nil || v.Conclusion != "failure" {
		t.Fatalf("agc/agc-validate did not fail: %+v", v)
	}
	var got []string
	for _, f := range readBack(t, v).Findings {
		if f.Class == rule {
			got = append(got, f.Location+": "+f.What)
		}
	}
	for _, g := range got {
		ok := true
		for _, w := range want {
			ok = ok && strings.Contains(g, w)
		}
		if ok {
			return got
		}
	}
	t.Fatalf("agc/agc-validate has no %s finding holding %q; its %s findings:\n%s", rule, want, rule, strings.Join(got, "\n"))
	return nil
}

// goLint is the go-lint block fixture with its gate id replaced.
func goLint(t *testing.T, id string) []byte {
	t.Helper()
	r := testkit.Response(t, prfixture.Patch)
	r.Gate.ID = id
	out, err := agc.Encode(r)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// checkRunNames asserts that every check run the emulator holds is named
// agc/<a gate id in the safe set>, and returns the names.
func checkRunNames(t *testing.T, srv *ghtest.Server) []string {
	t.Helper()
	var names []string
	srv.Snapshot(func(_ map[string]*ghtest.PullRequest, runs []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		for _, r := range runs {
			names = append(names, r.Name)
			id, ok := strings.CutPrefix(r.Name, "agc/")
			if err := agc.CheckGateID(id); !ok || err != nil {
				t.Errorf("check run named %q: %v", r.Name, err)
			}
		}
	})
	return names
}

// TestActionUnsafeGateID: a gate id outside the safe set, from an AGC
// answer or from a SARIF log's embedded answer, is refused: no check run
// is named after it, and agc-validate fails naming the file, the line and
// column and the pointer. (Issue 11: a gate id with a line break became a
// check-run name with a line break.)
func TestActionUnsafeGateID(t *testing.T) {
	ids := map[string]string{
		"newline":   "code-review\n::error file=README.md,line=1::INJECTED",
		"legacy":    "go-lint##[stop-commands]INJ",
		"upper":     "Secrets",
		"space":     "code review",
		"bidi":      "go-lint\u202e",
		"category":  "go-lint/../x",
		"validator": "agc-validate",
	}
	for name, id := range ids {
		t.Run("agc/"+name, func(t *testing.T) {
			srv, root := prfixture.Setup(t)
			writeFile(t, root, "out/review.json", goLint(t, id))
			r := newActionRunner(t, srv, root, "pull_request", prfixture.Event).input("agc", "out/review.json")
			code, stdout := r.run()
			if code != cmdenv.ExitFail {
				t.Fatalf("exit %d\n%s", code, stdout)
			}
			if names := checkRunNames(t, srv); len(names) != 1 || names[0] != "agc/agc-validate" {
				t.Fatalf("check runs %q, want agc-validate's alone", names)
			}
			validatorSays(t, srv, prfixture.HeadSHA, "action.gate-id", "out/review.json#/gate/id")
		})
	}
	t.Run("sarif/embedded answer", func(t *testing.T) {
		srv, root := prfixture.Setup(t)
		orig := sarifOf(t, goLint(t, "go-lint"))
		log := strings.Replace(orig, `"id":"go-lint","kind"`, `"id":"go-lint\n::error::INJECTED","kind"`, 1)
		if log == orig {
			t.Fatalf("the embedded gate id is not where the test expects it:\n%.600s", log)
		}
		writeFile(t, root, "lint.sarif", []byte(log))
		r := newActionRunner(t, srv, root, "pull_request", prfixture.Event).input("sarif", "lint.sarif")
		code, stdout := r.run()
		if code != cmdenv.ExitFail {
			t.Fatalf("exit %d\n%s", code, stdout)
		}
		if names := checkRunNames(t, srv); len(names) != 1 {
			t.Fatalf("check runs %q, want agc-validate's alone", names)
		}
		validatorSays(t, srv, prfixture.HeadSHA, "action.gate-id", "lint.sarif#/runs/0/tool/driver/name", `"go-lint\n::error::INJECTED"`)
	})
	t.Run("sarif/tool name", func(t *testing.T) {
		srv, root := prfixture.Setup(t)
		writeFile(t, root, "lint.sarif", []byte(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":".Hidden\n::error::INJECTED"}},"results":[]}]}`))
		r := newActionRunner(t, srv, root, "pull_request", prfixture.Event).input("sarif", "lint.sarif")
		if code, stdout := r.run(); code != cmdenv.ExitOK {
			t.Fatalf("exit %d\n%s", code, stdout)
		}
		if names := checkRunNames(t, srv); len(names) != 1 || names[0] != "agc/hidden-error-injected" {
			t.Fatalf("check runs %q, want the normalised agc/hidden-error-injected", names)
		}
	})
}

// sarifOf converts an AGC answer to SARIF as agc-sarif convert does: the
// run embeds the answer, which reading it back restores.
func sarifOf(t *testing.T, answer []byte) string {
	t.Helper()
	r, err := agc.Decode("a.json", answer, agc.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var buf strings.Builder
	if err := sarif.Write(&buf, []*agc.Response{r}, sarif.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestActionSARIFToolNameClash: two SARIF tools whose names normalise to
// one gate id ("ESLint", "eslint") must not silently become one gate,
// whichever log sorts first. None of their runs is posted, agc-validate
// fails naming both tools; pairing each log tells them apart.
func TestActionSARIFToolNameClash(t *testing.T) {
	const real = `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"ESLint"}},"results":[
		{"ruleId":"no-eval","level":"error","message":{"text":"eval is evil."},
		 "locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/store/db.go"},"region":{"startLine":9}}}]}]}]}`
	const planted = `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"eslint"}},"results":[]}]}`
	t.Run("unpaired", func(t *testing.T) {
		srv, root := prfixture.Setup(t)
		writeFile(t, root, "sarif/0-planted.sarif", []byte(planted))
		writeFile(t, root, "sarif/eslint.sarif", []byte(real))
		r := newActionRunner(t, srv, root, "pull_request", prfixture.Event).input("sarif", "sarif/*.sarif")
		code, stdout := r.run()
		if code != cmdenv.ExitFail {
			t.Fatalf("exit %d\n%s", code, stdout)
		}
		runs := runsOn(srv, prfixture.HeadSHA)
		if runs["agc/eslint"] != nil {
			t.Fatalf("two tools became one gate agc/eslint: %+v", runs["agc/eslint"])
		}
		got := validatorSays(t, srv, prfixture.HeadSHA, "action.gate-id", "sarif/0-planted.sarif#/runs/0/tool/driver/name", `"eslint", "ESLint"`)
		validatorSays(t, srv, prfixture.HeadSHA, "action.gate-id", "sarif/eslint.sarif#/runs/0/tool/driver/name", `"eslint", "ESLint"`)
		if len(got) != 2 {
			t.Errorf("want one finding per refused run: %q", got)
		}
	})
	t.Run("paired", func(t *testing.T) {
		srv, root := prfixture.Setup(t)
		writeFile(t, root, "sarif/0-planted.sarif", []byte(planted))
		writeFile(t, root, "sarif/eslint.sarif", []byte(real))
		r := newActionRunner(t, srv, root, "pull_request", prfixture.Event).
			input("sarif", "eslint=sarif/eslint.sarif\nsarif/0-planted.sarif")
		if code, stdout := r.run(); code != cmdenv.ExitFail {
			t.Fatalf("exit %d\n%s", code, stdout)
		}
		runs := runsOn(srv, prfixture.HeadSHA)
		if e := runs["agc/eslint"]; e == nil || e.Conclusion != "failure" || countRuns(srv, prfixture.HeadSHA, "agc/eslint") != 1 {
			t.Fatalf("agc/eslint must be the paired log's block alone: %+v", e)
		}
		validatorSays(t, srv, prfixture.HeadSHA, "action.pairing", "sarif/0-planted.sarif#/runs/0/tool/driver/name", "pairs gate eslint with files of its own")
	})
	t.Run("paired with distinct ids", func(t *testing.T) {
		srv, root := prfixture.Setup(t)
		writeFile(t, root, "a.sarif", []byte(planted))
		writeFile(t, root, "b.sarif", []byte(real))
		r := newActionRunner(t, srv, root, "pull_request", prfixture.Event).input("sarif", "eslint-legacy=a.sarif\neslint=b.sarif")
		if code, stdout := r.run(); code != cmdenv.ExitFail {
			t.Fatalf("exit %d\n%s", code, stdout)
		}
		runs := runsOn(srv, prfixture.HeadSHA)
		if runs["agc/eslint"] == nil || runs["agc/eslint-legacy"] == nil || runs["agc/eslint"].Conclusion != "failure" ||
			runs["agc/eslint-legacy"].Conclusion != "success" || runs["agc/agc-validate"] != nil {
			t.Fatalf("check runs %v", checkRunNames(t, srv))
		}
		if f := readBack(t, runs["agc/eslint"]).Findings; len(f) != 1 || !strings.HasPrefix(f[0].ID, "eslint/no-eval/") {
			t.Errorf("the paired gate's finding ids start with its id: %+v", f)
		}
	})
	t.Run("paired log of several runs", func(t *testing.T) {
		srv, root := prfixture.Setup(t)
		copyFixture(t, root, "../../fixtures/sarif/lint-two-runs.sarif", "lint.sarif")
		r := newActionRunner(t, srv, root, "pull_request", prfixture.Event).input("sarif", "lint=lint.sarif")
		if code, stdout := r.run(); code != cmdenv.ExitFail {
			t.Fatalf("exit %d\n%s", code, stdout)
		}
		if names := checkRunNames(t, srv); len(names) != 1 || names[0] != "agc/agc-validate" {
			t.Fatalf("check runs %q: a paired log of two runs is refused", names)
		}
		validatorSays(t, srv, prfixture.HeadSHA, "action.pairing", "lint.sarif#/runs", "holds 2 runs")
	})
}

// TestActionPairingInputs: the grammar of a paired line, as the workflow
// writes it.
func TestActionPairingInputs(t *testing.T) {
	t.Run("a path that holds =", func(t *testing.T) {
		for _, line := range []string{"go-lint=out/a=b.json", `go-lint = out/a\=b.json`, `out/a\=b.json`} {
			srv, root := prfixture.Setup(t)
			copyFixture(t, root, prfixture.Patch, "out/a=b.json")
			r := newActionRunner(t, srv, root, "pull_request", prfixture.Event).input("agc", line).input("fail-on", "never")
			if code, stdout := r.run(); code != cmdenv.ExitOK {
				t.Fatalf("%s: exit %d\n%s", line, code, stdout)
			}
			if runsOn(srv, prfixture.HeadSHA)["agc/go-lint"] == nil {
				t.Fatalf("%s: no agc/go-lint", line)
			}
		}
	})
	bad := []struct{ input, line, want string }{
		{"agc", "Code Review=x.json", `input "agc": line "Code Review=x.json": gate id "Code Review" holds 'C' (upper case)`},
		{"agc", "=x.json", `input "agc": line "=x.json": no gate id before "="`},
		{"agc", "agc-validate=x.json", `input "agc": line "agc-validate=x.json": agc-validate is the validator's own gate`},
		{"sarif", "lint=", `input "sarif": line "lint=": no file after "="`},
		{"sarif", "lint%0A::error::x=a.sarif", `input "sarif": line "lint%250A::error::x=a.sarif": gate id "lint%250A::error::x" holds '%25'`},
		{"gate", "code review", `input "gate": gate id "code review" holds ' '`},
	}
	for _, c := range bad {
		t.Run(c.input+" "+c.line, func(t *testing.T) {
			r := newActionRunner(t, nil, t.TempDir(), "push", webhooks+"push.json").input(c.input, c.line)
			code, stdout := r.run()
			if code != cmdenv.ExitUsage || !strings.Contains(stdout, "::error title=agc-action::") || !strings.Contains(stdout, c.want) {
				t.Errorf("exit %d, want 2 with %q:\n%s", code, c.want, stdout)
			}
		})
	}
	t.Run("one file, two gates", func(t *testing.T) {
		root := t.TempDir()
		copyFixture(t, root, prfixture.Patch, "x.json")
		r := newActionRunner(t, nil, root, "push", webhooks+"push.json").input("agc", "a=x.json\nb=*.json")
		if code, stdout := r.run(); code != cmdenv.ExitUsage || !strings.Contains(stdout, "x.json is paired with gate a and with gate b") {
			t.Errorf("exit %d:\n%s", code, stdout)
		}
	})
}
