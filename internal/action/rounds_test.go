package action

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/internal/prfixture"
	"github.com/agcgate/agc-action/review"
	"github.com/agcgate/agc-action/validate"
	"github.com/google/go-github/v62/github"
)

// roundsPR is a pull request pushed to head by head on the emulator, with
// the workspace holding the head's files (no git: rounds need none).
type roundsPR struct {
	t     *testing.T
	srv   *ghtest.Server
	root  string
	heads []string
}

func newRoundsPR(t *testing.T) *roundsPR {
	return &roundsPR{t: t, srv: ghtest.New(t, ghtest.Options{}), root: t.TempDir()}
}

// push writes files (path, content, ...) into the workspace, moves the
// pull request's head to a new commit that adds them, and returns the
// pull_request event.
func (p *roundsPR) push(files ...string) string {
	p.t.Helper()
	var pr []ghtest.File
	for i := 0; i+1 < len(files); i += 2 {
		path := filepath.Join(p.root, files[i])
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			p.t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(files[i+1]), 0o644); err != nil {
			p.t.Fatal(err)
		}
	}
	for _, f := range []string{"src/a.js", "src/b.js", "src/c.js"} {
		if data, err := os.ReadFile(filepath.Join(p.root, f)); err == nil {
			pr = append(pr, ghtest.File{Path: f, Head: string(data)})
		}
	}
	before := ""
	if len(p.heads) > 0 {
		before = p.heads[len(p.heads)-1]
	}
	head := fmt.Sprintf("%040x", 0xa1000+len(p.heads))
	p.heads = append(p.heads, head)
	p.srv.SetHead(prfixture.Repo, 2, head, pr)
	return pushEvent(p.t, before, head)
}

func (p *roundsPR) head() string { return p.heads[len(p.heads)-1] }

func (p *roundsPR) action(event string, inputs map[string]string) (*actionRunner, int, string) {
	return runOnHead(p.t, p.srv, p.root, p.head(), event, inputs)
}

// round reads back the response embedded in gate's check run on the head.
func (p *roundsPR) round(gate string) (*agc.Response, []byte, *ghtest.CheckRun) {
	p.t.Helper()
	run := runsOn(p.srv, p.head())["agc/"+gate]
	if run == nil {
		p.t.Fatalf("no check run agc/%s on %s", gate, p.head()[:7])
	}
	cr := &github.CheckRun{Output: &github.CheckRunOutput{Text: &run.Text}}
	raw, err := review.ReadBackRaw(cr)
	if err != nil {
		p.t.Fatal(err)
	}
	return readBack(p.t, run), raw, run
}

// eslintResult is one result of the SARIF log eslint writes.
type eslintResult struct {
	rule, path string
	line       int
}

// eslintLog writes eslint.sarif with the results.
func (p *roundsPR) eslintLog(results ...eslintResult) {
	p.t.Helper()
	var rs []map[string]any
	for _, r := range results {
		rs = append(rs, map[string]any{"ruleId": r.rule, "level": "error", "message": map[string]any{"text": "Rule " + r.rule + " is broken."},
			"locations": []any{map[string]any{"physicalLocation": map[string]any{
				"artifactLocation": map[string]any{"uri": r.path}, "region": map[string]any{"startLine": r.line}}}}})
	}
	log := map[string]any{"version": "2.1.0", "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
		"runs": []any{map[string]any{"tool": map[string]any{"driver": map[string]any{"name": "ESLint", "version": "9.0.0"}}, "results": rs}}}
	data, _ := json.Marshal(log)
	writeFile(p.t, p.root, "eslint.sarif", data)
}

// statuses maps each finding's class to its status.
func statuses(r *agc.Response) map[string]string {
	out := map[string]string{}
	for _, f := range r.Findings {
		out[f.Class] = f.Status
	}
	return out
}

func idOf(t *testing.T, r *agc.Response, class string) string {
	t.Helper()
	for _, f := range r.Findings {
		if f.Class == class {
			return f.ID
		}
	}
	t.Fatalf("no finding of class %s", class)
	return ""
}

// liveMentions counts the mentions of login in Markdown: "@login" not
// made inert by the zero-width space render.Escape puts after "@", nor
// inside a code span, where GitHub links nothing.
func liveMentions(text, login string) int {
	text = regexp.MustCompile("`[^`]*`").ReplaceAllString(text, "")
	return len(regexp.MustCompile(`@`+regexp.QuoteMeta(login)+`\b`).FindAllString(text, -1))
}

const (
	aJS = "var unused = 1;\n"
	bJS = "function f(a, b) {\n  return 1;\n  if (a == b) {}\n}\n"
	cJS = "function g() {\n  undefinedThing();\n}\n"
)

// TestActionRoundsSARIF walks one pull request through three pushes of a
// SARIF-derived gate, which says round 1 every time, and reads the rounds
// back from the check runs after each (issue 12, items 1, 2 and 4):
// round 1/3 with every finding new; round 2/3 with the two left
// still-open (the one that moved 20 lines down too) and the fixed one
// carried; round 3/3, where the fixed one is back as regressed, escalates
// to the person the workflow names, mentioned once; the three rounds pass
// validate --chain in order.
func TestActionRoundsSARIF(t *testing.T) {
	p := newRoundsPR(t)
	step := map[string]string{"sarif": "eslint=eslint.sarif", "escalate-to": "@acme/reviewers", "fail-on": "escalate"}
	var raws []validate.Input

	// Push 1: three blocking findings.
	ev := p.push("src/a.js", aJS, "src/b.js", bJS, "src/c.js", cJS)
	p.eslintLog(eslintResult{"no-unused-vars", "src/a.js", 1}, eslintResult{"eqeqeq", "src/b.js", 3}, eslintResult{"no-undef", "src/c.js", 2})
	if _, code, log := p.action(ev, step); code != cmdenv.ExitOK {
		t.Fatalf("push 1: exit %d\n%s", code, log)
	}
	r1, raw, run := p.round("eslint")
	raws = append(raws, validate.Input{File: "round1.json", Data: raw})
	if !attemptIs(r1, 1, 3) || r1.Verdict != agc.Block || run.Conclusion != "failure" || len(r1.Carried) != 0 {
		t.Fatalf("push 1: round %+v, verdict %s, conclusion %s, carried %v", r1.Attempt, r1.Verdict, run.Conclusion, r1.Carried)
	}
	if got, want := statuses(r1), map[string]string{"no-unused-vars": "new", "eqeqeq": "new", "no-undef": "new"}; !mapsEqual(got, want) {
		t.Errorf("push 1: statuses %v, want %v", got, want)
	}
	fixed, moved := idOf(t, r1, "no-undef"), idOf(t, r1, "eqeqeq")

	// Push 2: no-undef fixed, the eqeqeq line moved 20 lines down.
	ev = p.push("src/b.js", strings.Repeat("// a comment\n", 20)+bJS, "src/c.js", "function g() {\n  definedThing();\n}\n")
	p.eslintLog(eslintResult{"no-unused-vars", "src/a.js", 1}, eslintResult{"eqeqeq", "src/b.js", 23})
	if _, code, log := p.action(ev, step); code != cmdenv.ExitOK {
		t.Fatalf("push 2: exit %d\n%s", code, log)
	}
	r2, raw, run := p.round("eslint")
	raws = append(raws, validate.Input{File: "round2.json", Data: raw})
	if !attemptIs(r2, 2, 3) || r2.Verdict != agc.Block || run.Conclusion != "failure" {
		t.Fatalf("push 2: round %+v, verdict %s, conclusion %s", r2.Attempt, r2.Verdict, run.Conclusion)
	}
	if got, want := statuses(r2), map[string]string{"no-unused-vars": "still-open", "eqeqeq": "still-open"}; !mapsEqual(got, want) {
		t.Errorf("push 2: statuses %v, want %v", got, want)
	}
	if idOf(t, r2, "eqeqeq") != moved {
		t.Errorf("the moved finding changed its id: %s, was %s", idOf(t, r2, "eqeqeq"), moved)
	}
	if !slices.Equal(r2.Carried, []string{fixed}) {
		t.Errorf("push 2: carried %v, want [%s]", r2.Carried, fixed)
	}

	// Push 3: no-undef is back; the budget is spent.
	ev = p.push("src/c.js", cJS)
	p.eslintLog(eslintResult{"no-unused-vars", "src/a.js", 1}, eslintResult{"eqeqeq", "src/b.js", 23}, eslintResult{"no-undef", "src/c.js", 2})
	ar, code, log := p.action(ev, step)
	if code != cmdenv.ExitFail {
		t.Fatalf("push 3: exit %d, want %d (fail-on escalate)\n%s", code, cmdenv.ExitFail, log)
	}
	r3, raw, run := p.round("eslint")
	raws = append(raws, validate.Input{File: "round3.json", Data: raw})
	if !attemptIs(r3, 3, 3) || r3.Verdict != agc.Escalate || run.Conclusion != "action_required" {
		t.Fatalf("push 3: round %+v, verdict %s, conclusion %s", r3.Attempt, r3.Verdict, run.Conclusion)
	}
	want := map[string]string{"no-unused-vars": "still-open", "eqeqeq": "still-open", "no-undef": "regressed", "budget-spent": "new"}
	if got := statuses(r3); !mapsEqual(got, want) {
		t.Errorf("push 3: statuses %v, want %v", got, want)
	}
	var decide *agc.Finding
	for i := range r3.Findings {
		if r3.Findings[i].Remedy.Kind == agc.RemedyDecide {
			decide = &r3.Findings[i]
		}
	}
	if decide == nil || decide.Remedy.Ask != "@acme/reviewers" || !slices.Equal(decide.Remedy.Options, []string{"accept as is", "keep blocking"}) ||
		decide.Severity != agc.Blocking || !strings.Contains(decide.What, "no-undef over rounds 1 and 3") {
		t.Fatalf("push 3: the decide finding %+v", decide)
	}
	if out := ar.outputs(); out["verdict"] != "escalate" {
		t.Errorf("verdict output %q", out["verdict"])
	}

	// escalate-to is mentioned once in each text the Action writes, and
	// the review mentioning it is the only text on the pull request that
	// does; the finding's ask, an answer's text, mentions no one.
	note := "**The attempt budget of agc/eslint is spent** (round 3 of 3, AGC §10): eqeqeq stayed open over rounds 1–3, no-undef over rounds 1 and 3, no-unused-vars over rounds 1–3."
	if n := liveMentions(run.Summary, "acme/reviewers"); n != 1 || !strings.Contains(run.Summary, note) {
		t.Errorf("check run summary: %d mentions, want 1, and the note %q:\n%s", n, note, run.Summary)
	}
	if sum := ar.summaryText(); liveMentions(sum, "acme/reviewers") != 1 || !strings.Contains(sum, note) {
		t.Errorf("job summary: %d mentions, want 1:\n%s", liveMentions(sum, "acme/reviewers"), sum)
	}
	mentions, reviews := 0, 0
	p.srv.Snapshot(func(prs map[string]*ghtest.PullRequest, _ []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		pr := prs[prfixture.Repo+"#2"]
		for _, rv := range pr.Reviews {
			if n := liveMentions(rv.Body, "acme/reviewers"); n > 0 {
				mentions += n
				reviews++
				if !strings.Contains(rv.Body, note) || rv.CommitID != p.head() {
					t.Errorf("the review that mentions is not the escalation of round 3:\n%s", rv.Body)
				}
			}
		}
		for _, c := range pr.Comments {
			mentions += liveMentions(c.Body, "acme/reviewers")
		}
	})
	if mentions != 1 || reviews != 1 {
		t.Errorf("escalate-to mentioned %d times in %d reviews on the pull request, want once", mentions, reviews)
	}

	// The rounds, in order, are one valid chain.
	if vs := validate.Inputs(raws, validate.Options{Chain: true}); validate.HasErrors(vs) {
		t.Errorf("the rounds do not pass validate --chain:\n%v", vs)
	}

	// A rerun of the same round is the same round, and mentions no one again.
	if _, code, log := p.action(ev, step); code != cmdenv.ExitFail {
		t.Fatalf("rerun: exit %d\n%s", code, log)
	}
	if again, _, _ := p.round("eslint"); again.Attempt.N != 3 || again.Verdict != agc.Escalate {
		t.Errorf("rerun of round 3: %+v %s", again.Attempt, again.Verdict)
	}
	p.srv.Snapshot(func(prs map[string]*ghtest.PullRequest, _ []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		n := 0
		for _, rv := range prs[prfixture.Repo+"#2"].Reviews {
			n += liveMentions(rv.Body, "acme/reviewers")
		}
		if n != 1 {
			t.Errorf("after a rerun escalate-to is mentioned %d times, want once", n)
		}
	})
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func attemptIs(r *agc.Response, n, budget int) bool {
	return r.Attempt.N == n && r.Attempt.Budget == budget
}

// reviewAnswer writes review.json: code-review's answer at round n of
// budget with findings (class, status) and carried ids.
func (p *roundsPR) reviewAnswer(n, budget int, carried []string, findings ...[2]string) {
	p.t.Helper()
	r := &agc.Response{AGC: agc.Version, Gate: agc.Gate{ID: "code-review", Kind: agc.Judgment, Version: "1"},
		Subject: agc.Subject{Kind: agc.SubjectPullRequest, Fingerprint: "sha256:whatever", Scope: []string{"src/**"}},
		Verdict: agc.Block, Coverage: agc.Coverage{Complete: true, Classes: []string{"naming", "errors"}},
		Attempt: agc.Attempt{N: n, Budget: budget}, Carried: carried}
	for _, f := range findings {
		r.Findings = append(r.Findings, agc.Finding{ID: "code-review/" + f[0] + "/src/a.js#f", Class: f[0], Location: "src/a.js#f",
			What: "Something about " + f[0] + ".", Why: "Rule " + f[0] + ".", Severity: agc.Blocking, Status: f[1],
			Remedy: agc.Remedy{Kind: agc.RemedyDelegate, Role: "author"},
			Check:  agc.Check{Kind: agc.CheckCondition, Condition: "It is fixed.", Run: "npm test"}})
	}
	data, _ := agc.Encode(r)
	writeFile(p.t, p.root, "review.json", data)
}

// validatorFindings returns the rule classes of agc/agc-validate's
// findings on the head, each with its location.
func (p *roundsPR) validatorFindings() map[string]string {
	p.t.Helper()
	r, _, _ := p.round("agc-validate")
	out := map[string]string{}
	for _, f := range r.Findings {
		out[f.Class] = f.Location
	}
	return out
}

// TestActionRoundsCounted: an AGC gate that counts its rounds keeps its
// numbers, statuses and carried, and is checked against the chain read
// back from its check runs; each broken §9 rule is a finding of
// agc-validate at the answer's place (issue 12, item 3).
func TestActionRoundsCounted(t *testing.T) {
	p := newRoundsPR(t)
	step := map[string]string{"agc": "code-review=review.json", "fail-on": "never", "budget": "2"}

	ev := p.push("src/a.js", aJS)
	p.reviewAnswer(1, 5, nil, [2]string{"naming", "new"})
	if _, code, log := p.action(ev, step); code != cmdenv.ExitOK {
		t.Fatalf("push 1: exit %d\n%s", code, log)
	}
	r1, _, _ := p.round("code-review")
	if !attemptIs(r1, 1, 2) {
		t.Errorf("push 1: round %+v, want 1 of 2 (the budget input opens the chain)", r1.Attempt)
	}

	// Round 2, counted by the gate (of its own budget): one finding is
	// regressed though nothing was carried, and it carries an id no round
	// raised. The round is posted as the gate wrote it.
	ev = p.push("src/a.js", aJS+"// more\n")
	p.reviewAnswer(2, 5, []string{"code-review/ghost/src/a.js#f"}, [2]string{"naming", "still-open"}, [2]string{"errors", "regressed"})
	if _, code, log := p.action(ev, step); code != cmdenv.ExitOK {
		t.Fatalf("push 2: exit %d\n%s", code, log)
	}
	r2, _, _ := p.round("code-review")
	if !attemptIs(r2, 2, 5) || r2.Verdict != agc.Block || !slices.Equal(r2.Carried, []string{"code-review/ghost/src/a.js#f"}) {
		t.Errorf("push 2: the gate's round was changed: %+v %s carried %v", r2.Attempt, r2.Verdict, r2.Carried)
	}
	if got, want := statuses(r2), map[string]string{"naming": "still-open", "errors": "regressed"}; !mapsEqual(got, want) {
		t.Errorf("push 2: statuses %v, want the gate's own %v", got, want)
	}
	want := map[string]string{
		validate.RegressedSeenCarried: "review.json#/findings/1/status",
		validate.CarriedSeen:          "review.json#/carried/0",
	}
	if got := p.validatorFindings(); !mapsEqual(got, want) {
		t.Errorf("push 2: agc-validate found %v, want %v", got, want)
	}
	if run := runsOn(p.srv, p.head())["agc/agc-validate"]; run.Conclusion != "failure" {
		t.Errorf("push 2: agc/agc-validate is %s", run.Conclusion)
	}

	// Round 4 after round 2: n out of sequence (and naming still-open two
	// rounds running, which §10 says should escalate: a lint).
	ev = p.push("src/a.js", aJS+"// more still\n")
	p.reviewAnswer(4, 5, nil, [2]string{"naming", "still-open"}, [2]string{"errors", "still-open"})
	if _, code, log := p.action(ev, step); code != cmdenv.ExitOK {
		t.Fatalf("push 3: exit %d\n%s", code, log)
	}
	if r3, _, _ := p.round("code-review"); !attemptIs(r3, 4, 5) {
		t.Errorf("push 3: renumbered to %+v", r3.Attempt)
	}
	if got, want := p.validatorFindings(), map[string]string{validate.ChainOrder: "review.json#/attempt/n", validate.LintEscalateEarly: "review.json#/verdict"}; !mapsEqual(got, want) {
		t.Errorf("push 3: agc-validate found %v, want %v", got, want)
	}
}

// TestActionRoundsByHeadOrder: rounds are numbered by the order of the
// heads, never by the order the runs finish in. Push A, then B before A's
// run ends: B's run finishes first; A's, finishing after it, does not
// count B's round before its own; the next push's run counts B's round
// and A's as one (the newer stands). And when A is force-pushed away (no
// longer among the pull request's commits), its run reads no round of the
// newer history as earlier than its own.
func TestActionRoundsByHeadOrder(t *testing.T) {
	step := map[string]string{"sarif": "eslint=eslint.sarif", "fail-on": "never", "budget": "10"}
	for _, forced := range []bool{false, true} {
		t.Run(fmt.Sprintf("force-pushed=%v", forced), func(t *testing.T) {
			p := newRoundsPR(t)
			p.eslintLog(eslintResult{"eqeqeq", "src/b.js", 3})
			for i := range 2 { // rounds 1 and 2 on two heads
				if _, code, log := p.action(p.push("src/b.js", bJS+strings.Repeat("// more\n", i)), step); code != cmdenv.ExitOK {
					t.Fatalf("push %d: exit %d\n%s", i+1, code, log)
				}
			}
			p.push("src/b.js", bJS+"// A\n")
			a := p.head()
			p.push("src/b.js", bJS+"// B\n")
			b := p.head()
			if forced {
				p.srv.Snapshot(func(prs map[string]*ghtest.PullRequest, _ []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
					pr := prs[prfixture.Repo+"#2"]
					pr.Commits = slices.DeleteFunc(pr.Commits, func(s string) bool { return s == a })
				})
			}
			// B's run finishes first.
			if _, code, log := runOnHead(t, p.srv, p.root, b, pushEvent(t, a, b), step); code != cmdenv.ExitOK {
				t.Fatalf("B: exit %d\n%s", code, log)
			}
			rb := readBack(t, runsOn(p.srv, b)["agc/eslint"])
			// A's run, for the older head, finishes after it; its event
			// (a workflow_run, a re-run) names no before.
			if _, code, log := runOnHead(t, p.srv, p.root, a, pushEvent(t, "", a), step); code != cmdenv.ExitOK {
				t.Fatalf("A: exit %d\n%s", code, log)
			}
			ra := readBack(t, runsOn(p.srv, a)["agc/eslint"])
			if ra.Attempt.N > rb.Attempt.N {
				t.Errorf("A's round %d is numbered after B's %d, a newer head's", ra.Attempt.N, rb.Attempt.N)
			}
			if forced {
				return
			}
			if ra.Attempt.N != 3 || rb.Attempt.N != 3 {
				t.Errorf("rounds A %d, B %d; want 3 and 3 (each after the two earlier heads)", ra.Attempt.N, rb.Attempt.N)
			}
			// The next push counts B's round, not A's late one, before its own.
			_, code, log := p.action(p.push("src/b.js", bJS+"// C\n"), step)
			if code != cmdenv.ExitOK {
				t.Fatalf("C: exit %d\n%s", code, log)
			}
			if rc, _, _ := p.round("eslint"); rc.Attempt.N != 4 {
				t.Errorf("C is round %d, want 4\n%s", rc.Attempt.N, log)
			}
		})
	}
}
