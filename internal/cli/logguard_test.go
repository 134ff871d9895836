package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/ghapi/ghtest"
)

// hx is the judged party's text for one field: it starts with a command,
// breaks lines with "\n", "\r" and U+2028 into more, and holds the legacy
// form and a stop-commands of its own.
func hx(field string) string {
	return "::error::INJ " + field + "\n::error file=a,line=1::INJ\r" + "  ::warning::INJ\n##[warning]INJ x ##[stop-commands]INJ\u2028::notice::INJ\n::stop-commands::TOK\n\u00a0::add-mask::INJ"
}

// hostileResponse is a valid AGC response with hx in every string the
// contract leaves to the gate, and in an extension member.
func hostileResponse(t *testing.T) []byte {
	t.Helper()
	yes := true
	input, _ := json.Marshal(map[string]string{"command": hx("input")})
	f := func(i int, r agc.Remedy, c agc.Check) agc.Finding {
		return agc.Finding{ID: hx(fmt.Sprint("id", i)), Class: hx("class"), Location: hx("location"), What: hx("what"), Why: hx("why"),
			Severity: agc.Blocking, Status: agc.StatusNew, Remedy: r, Check: c}
	}
	r := &agc.Response{AGC: agc.Version, Gate: agc.Gate{ID: hx("gate"), Kind: agc.Judgment, Version: hx("version")},
		Subject: agc.Subject{Kind: agc.SubjectDiff, Fingerprint: hx("fingerprint"), Scope: []string{"src/**", hx("scope")}},
		Verdict: agc.Block, Coverage: agc.Coverage{Complete: false, Classes: []string{hx("class")}, NotChecked: []string{hx("not_checked")}},
		Attempt: agc.Attempt{N: 1, Budget: 3}, Carried: []string{hx("carried")},
		Unknown: []byte(`{"x-extension":` + jsonString(hx("extension")) + `}`),
		Findings: []agc.Finding{
			f(0, agc.Remedy{Kind: agc.RemedyPatch, Edits: []agc.Edit{{Path: hostilePath, Find: hx("find"), Replace: hx("replace")}}}, agc.Check{Kind: agc.CheckCommand, Run: hx("run")}),
			f(1, agc.Remedy{Kind: agc.RemedyCommand, Run: hx("remedy-run")}, agc.Check{Kind: agc.CheckCondition, Condition: hx("condition")}),
			f(2, agc.Remedy{Kind: agc.RemedyDelegate, Role: hx("role"), Authority: hx("authority")}, agc.Check{Kind: agc.CheckPreview}),
			f(3, agc.Remedy{Kind: agc.RemedyDecide, Ask: hx("ask"), Options: []string{hx("option")}}, agc.Check{Kind: agc.CheckPreview}),
			f(4, agc.Remedy{Kind: agc.RemedyGenerate, Tool: hx("tool")}, agc.Check{Kind: agc.CheckPreview}),
			f(5, agc.Remedy{Kind: agc.RemedyRewrite, Input: input, Applied: &yes}, agc.Check{Kind: agc.CheckPreview}),
		}}
	data, err := agc.Encode(r)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// hostileLog is a SARIF log with hx in the tool, the rules, the results,
// their messages and their paths.
func hostileLog() string {
	q := jsonString
	return `{"version":"2.1.0","$schema":"https://json.schemastore.org/sarif-2.1.0.json","runs":[{"tool":{"driver":{"name":` + q(hx("tool")) + `,"version":` + q(hx("tool-version")) + `,
 "rules":[{"id":` + q(hostileRule) + `,"name":` + q(hx("rule-name")) + `,"shortDescription":{"text":` + q(hx("short")) + `},"fullDescription":{"text":` + q(hx("full")) + `},
  "help":{"text":` + q(hx("help")) + `,"markdown":` + q(hx("help-md")) + `},"helpUri":"https://example.com/x","defaultConfiguration":{"level":"error"}}]}},
 "results":[
  {"ruleId":` + q(hostileRule) + `,"message":{"text":` + q(hx("message")) + `},
   "locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/store/db.go"},"region":{"startLine":5}}}],
   "fixes":[{"description":{"text":` + q(hx("fix")) + `},"artifactChanges":[{"artifactLocation":{"uri":"src/store/db.go"},
     "replacements":[{"deletedRegion":{"startLine":5,"startColumn":1,"endColumn":2},"insertedContent":{"text":` + q(hx("inserted")) + `}}]}]}]},
  {"ruleId":` + q(hx("rule2")) + `,"level":"warning","message":{"text":` + q(hx("message2")) + `},
   "locations":[{"physicalLocation":{"artifactLocation":{"uri":` + q(hostilePath) + `},"region":{"startLine":1}}}]}]}]}`
}

// TestNoCommandOfTheJudgedParty runs every command over the hostile
// corpus under GitHub Actions, from file names that start with "::" or
// hold line breaks, and reads stdout and stderr as the runner does: the
// only commands in them are ours.
func TestNoCommandOfTheJudgedParty(t *testing.T) {
	srv, root := ghSetup(t)
	repo, base, _ := hostileRepo(t)
	repo.Write("::notice::INJ-root", "x\n")
	repo.Commit("a file whose name is a command")
	event, _ := filepath.Abs(ghEvent)
	push, _ := filepath.Abs("../../fixtures/webhooks/push.json")
	t.Chdir(root)
	write := func(name string, data []byte) string {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		return name
	}
	answer := hostileResponse(t)
	valid := write("::error::INJ-valid.json", answer)
	broken := write("x\n::warning::INJ-broken.json", []byte(strings.Replace(string(answer), `"block"`, jsonString(hx("verdict")), 1)))
	write("answers/::error::INJ-valid.json", answer)
	write("answers/x\n::warning::INJ-broken.json", []byte(strings.Replace(string(answer), `"block"`, jsonString(hx("verdict")), 1)))
	chain := write("chain.jsonl", []byte(strings.ReplaceAll(string(answer), "\n", "")+"\n"+strings.ReplaceAll(string(answer), "\n", "")+"\n"))
	logFile := write("::error::INJ.sarif", []byte(hostileLog()))
	message := write("message.md", []byte("Done.\n\n```agc\n"+string(answer)+"```\n"))
	notJSON := write("not-json.md", []byte("Done.\n\n```agc\n"+hx("block")+"\n```\n"))
	toolCall := write("call.json", []byte(`{"tool_name":"Bash","tool_input":{"command":`+jsonString(hx("call"))+`}}`))
	gate := write("gate.sh", []byte("#!/bin/sh\ncat "+filepath.Join(root, valid)+"\nprintf '%s\\n' '::error::INJ-gate-stderr' 'x ##[error]INJ' >&2\n"))
	if err := os.Chmod(gate, 0o755); err != nil {
		t.Fatal(err)
	}
	prev := responseFile(t, repo, base, "diff", []string{"**"})
	payload := `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":` + jsonString(hx("payload")) + `}}`

	env := map[string]string{"GITHUB_REPOSITORY": ghRepo, "GITHUB_EVENT_PATH": event, "GITHUB_EVENT_NAME": "pull_request", "GITHUB_SHA": ghHeadSHA,
		"GITHUB_API_URL": srv.URL(), "GITHUB_GRAPHQL_URL": srv.GraphQLURL(), "GITHUB_WORKSPACE": root, "RUNNER_TEMP": t.TempDir()}
	action := func(extra map[string]string) map[string]string {
		m := map[string]string{"INPUT_AGC": "answers/*.json", "INPUT_SARIF": logFile, "INPUT_FAIL-ON": "never", "INPUT_TOKEN": ghtest.TokenActions}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	cases := []struct {
		name  string
		env   map[string]string
		stdin string
		args  []string
	}{
		{name: "validate", args: []string{"validate", valid, broken}},
		{name: "validate json", args: []string{"validate", "--format", "json", valid, broken}},
		{name: "validate agc", args: []string{"validate", "--format", "agc", valid, broken}},
		{name: "validate sarif", args: []string{"validate", "--format", "sarif", valid, broken}},
		{name: "validate chain", args: []string{"validate", "--chain", chain}},
		{name: "validate stdin", stdin: string(answer), args: []string{"validate", "-"}},
		{name: "render", args: []string{"render", valid}},
		{name: "render markdown", args: []string{"render", "--format", "markdown", valid}},
		{name: "render broken", args: []string{"render", broken}},
		{name: "extract", args: []string{"extract", message}},
		{name: "extract not JSON", args: []string{"extract", notJSON}},
		{name: "schema", args: []string{"schema"}},
		{name: "version", args: []string{"version"}},
		{name: "unknown command", args: []string{hx("command")}},
		{name: "a file name taken for a flag", args: []string{"validate", "-x\n::error::INJ-flag\r##[warning]INJ.json"}},
		{name: "a flag value", args: []string{"convert", "--to", hx("format"), valid}},
		{name: "fingerprint explain", args: []string{"fingerprint", "--repo", repo.Dir, "--explain"}},
		{name: "fingerprint subject", args: []string{"fingerprint", "--repo", repo.Dir, "--subject", valid, "--explain"}},
		{name: "fingerprint tool call", args: []string{"fingerprint", "--kind", "tool-call", "--input", toolCall, "--scope", hx("pointer")}},
		{name: "carry", args: []string{"carry", "--previous", prev, "--previous-rev", base, "--repo", repo.Dir}},
		{name: "carry hostile", args: []string{"carry", "--previous", valid, "--repo", repo.Dir}},
		{name: "carry github", env: map[string]string{"GITHUB_TOKEN": ghtest.TokenActions},
			args: []string{"carry", "--github", "--gate", "code-review", "--pr", "2", "--sha", ghHeadSHA, "--scope", "**", "--repo", repo.Dir}},
		{name: "github dry-run", args: []string{"github", "--check", "--review", "--status", "--upload-sarif", "--poll-delay=1ms", "--pr", "2", "--dry-run", "--root", root, valid, logFile}},
		{name: "github read-only", env: map[string]string{"GITHUB_TOKEN": ghtest.TokenReadOnly},
			args: []string{"github", "--check", "--review", "--pr", "2", "--root", root, valid, logFile}},
		{name: "hook", stdin: payload, args: []string{"hook", "claude", "--event", "PreToolUse", "--", "./" + gate}},
		{name: "hook post", stdin: strings.Replace(payload, "PreToolUse", "PostToolUse", 1), args: []string{"hook", "claude", "--event", "PostToolUse", "--", "./" + gate}},
		{name: "hook fails closed", stdin: payload, args: []string{"hook", "claude", "--event", "PreToolUse", "--", "cat", broken}},
		{name: "action", env: action(nil), args: []string{"action"}},
		{name: "action preview", env: action(map[string]string{"INPUT_PREVIEW": "true"}), args: []string{"action"}},
		{name: "action read-only", env: action(map[string]string{"INPUT_TOKEN": ghtest.TokenReadOnly}), args: []string{"action"}},
		{name: "action push", env: action(map[string]string{"GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": push, "INPUT_DRY-RUN": "true"}), args: []string{"action"}},
	}
	for _, to := range []string{"agc", "sarif", "text", "markdown", "claude-pre-tool-use", "claude-post-tool-use"} {
		cases = append(cases, struct {
			name  string
			env   map[string]string
			stdin string
			args  []string
		}{name: "convert agc to " + to, args: []string{"convert", "--to", to, valid}})
	}
	for _, to := range []string{"agc", "sarif", "text", "markdown"} {
		cases = append(cases, struct {
			name  string
			env   map[string]string
			stdin string
			args  []string
		}{name: "convert sarif to " + to, args: []string{"convert", "--to", to, logFile}})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			all := map[string]string{}
			for k, v := range env {
				all[k] = v
			}
			for k, v := range c.env {
				all[k] = v
			}
			code, out, errOut := runCmd(inActions(all), c.stdin, c.args...)
			quiet := c.name == "schema" || c.name == "version" || c.name == "carry github" || c.name == "action" // nothing of theirs to print
			if !quiet && !strings.Contains(out+errOut, "INJ") {
				t.Errorf("exit %d: the hostile text never reached the output, so the test proves nothing:\n%s\n%s", code, out, errOut)
			}
			noForeign(t, "stdout", out)
			noForeign(t, "stderr", errOut)
		})
	}
}
