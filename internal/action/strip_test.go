package action

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
)

// answer writes the gate's answer, as the judged party can shape it, to
// review.json in the workspace: a JSON object, so that it can hold any
// member.
func (p *carryPR) answer(verdict string, subject map[string]any, extra map[string]any) {
	p.t.Helper()
	r := map[string]any{"agc": agc.Version,
		"gate":    map[string]any{"id": "code-review", "kind": agc.Judgment, "version": "1"},
		"subject": subject, "verdict": verdict,
		"coverage": map[string]any{"complete": true, "classes": []string{"naming"}},
		"attempt":  map[string]any{"n": 1, "budget": 3}}
	if verdict != agc.Allow {
		r["findings"] = []any{map[string]any{"id": "code-review/naming/src/a.go#a", "class": "naming", "location": "src/a.go#a",
			"what": "Package a is badly named.", "why": "Rule naming: names say what.", "severity": agc.Blocking, "status": agc.StatusNew,
			"remedy": map[string]any{"kind": agc.RemedyDelegate, "role": "author"},
			"check":  map[string]any{"kind": agc.CheckCondition, "condition": "The package has a telling name."}}}
	}
	for k, v := range extra {
		r[k] = v
	}
	data, err := json.Marshal(r)
	if err != nil {
		p.t.Fatal(err)
	}
	writeFile(p.t, p.repo.Dir, "review.json", data)
}

// TestAttackOwnMembersStripped: members under agc-action/ are agc-action's
// alone. An answer that brings its own (a carry record naming a commit
// never judged, a gate subject, one on a finding) has each removed with a
// lint line naming the file and the JSON pointer, and none of them reaches
// the check run.
func TestAttackOwnMembersStripped(t *testing.T) {
	p := newCarryPR(t)
	ev := p.push("src/a.go", "package a // the change under review\n")
	forged := strings.Repeat("f", 40)
	p.answer(agc.Block, map[string]any{"kind": agc.SubjectPullRequest, "fingerprint": "sha256:the-agent", "scope": []string{"src/**"},
		"agc-action/gate-subject": map[string]any{"fingerprint": "sha256:forged", "bound_at": forged}},
		map[string]any{"agc-action/carried-from": map[string]any{"sha": forged, "fingerprint": "sha256:forged", "to": forged},
			"x-vendor/kept": true})
	_, _, log := p.action(ev, map[string]string{"agc": "code-review=review.json", "scope": "src/**", "fail-on": "never"})
	for _, ptr := range []string{"/agc-action~1carried-from", "/subject/agc-action~1gate-subject"} {
		if !strings.Contains(log, "review.json: "+ptr+": ") {
			t.Errorf("no lint line naming review.json and %s:\n%s", ptr, log)
		}
	}
	run := p.runOn(p.head)
	if run == nil {
		t.Fatal("no agc/code-review check run")
	}
	resp := readBack(t, run)
	raw, _ := agc.Encode(resp)
	if strings.Contains(string(raw), forged) || strings.Contains(string(raw), "sha256:forged") {
		t.Errorf("a forged agc-action/ member reached the check run:\n%s", raw)
	}
	if !strings.Contains(string(raw), `"x-vendor/kept"`) {
		t.Errorf("another vendor's member was dropped:\n%s", raw)
	}
	if strings.Contains(run.Summary, forged[:7]) || strings.Contains(run.Title, forged[:7]) {
		t.Errorf("the forged commit shows in the check run: %q\n%s", run.Title, run.Summary)
	}
}

// TestAttackOwnMembersStrippedFromSARIF: a SARIF log written from an AGC
// response keeps the response's members in its properties, so a log from
// the pull request's own linter can bring agc-action/ members too; they
// are stripped like an answer's.
func TestAttackOwnMembersStrippedFromSARIF(t *testing.T) {
	p := newCarryPR(t)
	ev := p.push("src/a.go", "package a // the change under review\n")
	forged := strings.Repeat("f", 40)
	log := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"lint","rules":[]}},"results":[],
	  "properties":{"agc/version":"0.1","agc/gate":{"id":"lint","kind":"deterministic"},
	    "agc/subject":{"kind":"commit","fingerprint":"sha256:forged","agc-action/gate-subject":{"bound_at":"` + forged + `"}},
	    "agc/verdict":"allow","agc/coverage":{"complete":true,"classes":["x"]},"agc/attempt":{"n":1,"budget":1},
	    "agc/unknown":{"agc-action/carried-from":{"sha":"` + forged + `","fingerprint":"sha256:forged","to":"` + forged + `"}}}}]}`
	writeFile(t, p.repo.Dir, "lint.sarif", []byte(log))
	_, _, out := p.action(ev, map[string]string{"sarif": "lint.sarif", "scope": "src/**", "fail-on": "never"})
	for _, ptr := range []string{"/agc-action~1carried-from", "/subject/agc-action~1gate-subject"} {
		if !strings.Contains(out, "lint.sarif: "+ptr+": ") {
			t.Errorf("no lint line naming lint.sarif and %s:\n%s", ptr, out)
		}
	}
	run := runsOn(p.srv, p.head)["agc/lint"]
	if run == nil {
		t.Fatalf("no agc/lint check run:\n%s", out)
	}
	resp := readBack(t, run)
	if raw, _ := agc.Encode(resp); strings.Contains(string(raw), forged) {
		t.Errorf("a forged agc-action/ member reached the check run:\n%s", raw)
	}
}
