package action

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/carry"
	"github.com/agcgate/agc-action/decide"
	"github.com/agcgate/agc-action/fingerprint/gittest"
	"github.com/agcgate/agc-action/ghapi"
	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/internal/prfixture"
	"github.com/agcgate/agc-action/render"
	"github.com/agcgate/agc-action/rounds"
)

// commenter is who writes a comment, and what GitHub says of them.
type commenter struct {
	who        ghtest.Identity
	permission string
	role       string
}

var (
	writer   = commenter{ghtest.Identity{Login: "octocat", ID: 583231, Type: "User"}, "write", "maintain"}
	reader   = commenter{ghtest.Identity{Login: "hubot", ID: 21, Type: "User"}, "read", "triage"}
	someBot  = commenter{ghtest.Identity{Login: "dependabot[bot]", ID: 49699333, Type: "Bot"}, "write", "write"}
	decision = "/agc decide code-review accept: the naming is the team's choice @org/leads <!-- x --> #12"
)

// commentEvent writes GitHub's issue_comment payload (fixtures/webhooks)
// as a comment on pull request #2 by c, made now: the example's shape,
// with issue.pull_request added and the comment's body, author and times
// set.
func (p *carryPR) commentEvent(fixture string, c commenter, id int64, body string, edited bool) string {
	data, err := os.ReadFile("../../fixtures/webhooks/" + fixture)
	if err != nil {
		p.t.Fatal(err)
	}
	var ev map[string]any
	if err := json.Unmarshal(data, &ev); err != nil {
		p.t.Fatal(err)
	}
	issue := ev["issue"].(map[string]any)
	issue["number"] = 2
	issue["pull_request"] = map[string]any{"url": "https://api.github.com/repos/" + prfixture.Repo + "/pulls/2",
		"html_url": "https://github.com/" + prfixture.Repo + "/pull/2"}
	cm := ev["comment"].(map[string]any)
	user := cm["user"].(map[string]any)
	user["login"], user["id"], user["type"] = c.who.Login, c.who.ID, c.who.Type
	now := time.Now().UTC()
	updated := now
	if edited {
		updated = now.Add(time.Minute)
	}
	cm["id"], cm["body"] = id, body
	cm["created_at"], cm["updated_at"] = now.Format(time.RFC3339), updated.Format(time.RFC3339)
	cm["html_url"] = "https://github.com/" + prfixture.Repo + "/pull/2#issuecomment-" + itoa(id)
	p.srv.SetPermission(prfixture.Repo, c.who, c.permission, c.role)
	out, _ := json.Marshal(ev)
	file := filepath.Join(p.t.TempDir(), "comment.json")
	if err := os.WriteFile(file, out, 0o644); err != nil {
		p.t.Fatal(err)
	}
	return file
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

// decideIn runs the Action on an issue_comment event in ws, a clone of the
// default branch (never the pull request's head), as GitHub runs it.
func (p *carryPR) decideIn(ws, event string) (int, string) {
	r := newActionRunner(p.t, p.srv, ws, "issue_comment", event)
	r.env["GITHUB_SHA"] = p.repo.Git("rev-parse", "master")
	for k, v := range map[string]string{"gate": "code-review", "scope-file": ".github/agc-scope", "gate-config": ".github/review.md"} {
		r.input(k, v)
	}
	return r.run()
}

// defaultBranch is a shallow clone of the default branch, the checkout of
// an issue_comment workflow: the pull request's head is not in it.
func (p *carryPR) defaultBranch() string {
	ws := filepath.Join(p.t.TempDir(), "ws")
	gittest.Run(p.t, p.repo.Dir, "clone", "-q", "--depth=1", "--branch", "master", "file://"+p.repo.Dir, ws)
	return ws
}

func replies(p *carryPR) []ghtest.IssueComment { return p.srv.IssueComments(prfixture.Repo, 2) }

// TestActionPersonDecides is issue 12's acceptance for a person's decision
// on the emulator, with GitHub's issue_comment payloads: a reader's, a
// bot's and an edited comment are ignored with one reply each (none again
// on a rerun); a writer's decision becomes the gate's check on the head
// with the decision in its binding record, its text escaped; a docs-only
// push carries the decision, an in-scope push voids it.
func TestActionPersonDecides(t *testing.T) {
	p := newCarryPR(t)
	p.repo.Git("branch", "master", "refs/remotes/origin/main") // the default branch, as the payload names it
	h0, judged := p.firstReviewBlocks()
	ws := p.defaultBranch()

	for i, tc := range []struct {
		name    string
		fixture string
		who     commenter
		edited  bool
		want    string
	}{
		{"a reader", "issue_comment.created.json", reader, false, "hubot has read access to this repository, role triage; deciding needs write access"},
		{"a bot", "issue_comment.created.json", someBot, false, "written by the bot dependabot[bot]: only a person decides"},
		{"an edited comment", "issue_comment.edited.json", writer, false, "the comment was edited after it was made"},
		{"a comment updated after it was made", "issue_comment.created.json", writer, true, "edited after it was made (updated"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := int64(9000 + i)
			event := p.commentEvent(tc.fixture, tc.who, id, decision, tc.edited)
			before := len(replies(p))
			for run := 0; run < 2; run++ { // the second is a rerun
				if code, log := p.decideIn(ws, event); code != cmdenv.ExitOK || !strings.Contains(log, "is not taken as a decision") {
					t.Fatalf("run %d: exit %d\n%s", run, code, log)
				}
			}
			got := replies(p)[before:]
			if len(got) != 1 || got[0].User.Login != ghtest.ActionsBot.Login {
				t.Fatalf("%d replies, want exactly one by the Action: %+v", len(got), got)
			}
			if to, ok := decide.RepliedTo(got[0].Body); !ok || to != id || !strings.Contains(got[0].Body, render.Escape(tc.want)) {
				t.Errorf("the reply does not answer comment %d saying %q:\n%s", id, tc.want, got[0].Body)
			}
			if run := p.runOn(h0); run.ID != judged.ID {
				t.Errorf("an ignored comment posted check run %d (%s)", run.ID, run.Title)
			}
		})
	}

	// A writer's decision: the check follows it, with the decision
	// embedded; a rerun records nothing twice and replies nothing.
	before := len(replies(p))
	event := p.commentEvent("issue_comment.created.json", writer, 9100, decision, false)
	for run := 0; run < 2; run++ {
		if code, log := p.decideIn(ws, event); code != cmdenv.ExitOK {
			t.Fatalf("run %d: exit %d\n%s", run, code, log)
		} else if run == 1 && !strings.Contains(log, "recorded already") {
			t.Errorf("a rerun does not see the decision recorded:\n%s", log)
		}
	}
	decided := p.runOn(h0)
	b := bindingOf(t, decided)
	if decided.ID == judged.ID || decided.Conclusion != "success" || decided.Title != "decided by octocat: accept" || b == nil || b.Decision == nil {
		t.Fatalf("the decision's check run: %+v, binding %+v", decided, b)
	}
	if want := bindingOf(t, judged); b.Fingerprint != want.Fingerprint || b.SHA != h0 || b.Decision.Decided != judged.ID ||
		b.Decision.Comment != 9100 || b.Decision.By != "octocat" || b.Decision.Permission != "write" || b.Decision.RoleName != "maintain" ||
		b.Decision.Reason != "the naming is the team's choice @org/leads <!-- x --> #12" {
		t.Errorf("decision record %+v in binding %+v, want bound to %s as check run %d is", b.Decision, b, want.Fingerprint, judged.ID)
	}
	if n := countRuns(p.srv, h0, "agc/code-review"); n != 2 {
		t.Errorf("%d runs on the head, want the gate's and one decision (a rerun posts none)", n)
	}
	for _, raw := range []string{"@org/leads", "<!-- x", "#12"} {
		if strings.Contains(decided.Summary, raw) {
			t.Errorf("the summary shows %q unescaped:\n%s", raw, decided.Summary)
		}
	}
	if len(replies(p)) != before {
		t.Errorf("a decision taken got a reply")
	}

	// A docs-only push keeps the decision, as it would keep a verdict.
	ev := p.push("docs/README.md", "# docs, reworded\n")
	h1 := p.head
	code, out, log := p.action(ev, readmeCarry)
	if out["carried"] != "true" || code != cmdenv.ExitOK || out["verdict"] != "allow" {
		t.Fatalf("docs-only push: exit %d %v\n%s", code, out, log)
	}
	carried := p.runOn(h1)
	if cb := bindingOf(t, carried); carried.Conclusion != "success" || cb == nil || cb.Decision == nil || *cb.Decision != *b.Decision || cb.CarriedTo != h1 {
		t.Fatalf("carried decision on %s: %+v, binding %+v", h1[:7], carried, cb)
	}

	// A decision made after the head moved on is not taken on the new
	// head's round unless that round completed before the comment: here
	// it did (the carried run), so a second decision applies.
	event = p.commentEvent("issue_comment.created.json", writer, 9101, "/agc decide code-review block: on second thought", false)
	if code, log := p.decideIn(ws, event); code != cmdenv.ExitOK || p.runOn(h1).Conclusion != "failure" {
		t.Fatalf("a second decision on the carried round: exit %d %+v\n%s", code, p.runOn(h1), log)
	}

	// An in-scope push voids it: the gate must judge again.
	ev = p.push("src/a.go", "package a // changed again\n")
	code, out, log = p.action(ev, readmeCarry)
	if out["carried"] != "false" || !strings.Contains(log, "src/a.go modified") || p.runOn(p.head) != nil {
		t.Fatalf("in-scope push: exit %d %v\n%s", code, out, log)
	}
}

// TestActionDecisionOptions: the options a round offers are accept, block
// and those of its decide remedy; another is refused with a reply listing
// them; a decision on a round that completed after the comment was made
// is not taken.
func TestActionDecisionOptions(t *testing.T) {
	p := newCarryPR(t)
	p.repo.Git("branch", "master", "refs/remotes/origin/main")
	ev := p.push("src/a.go", "package a // the change under review\n")
	p.escalation()
	p.action(ev, map[string]string{"agc": "code-review=review.json", "scope-file": ".github/agc-scope", "gate-config": ".github/review.md"})
	ws := p.defaultBranch()

	event := p.commentEvent("issue_comment.created.json", writer, 9200, "/agc decide code-review merge anyway: trust me", false)
	if code, log := p.decideIn(ws, event); code != cmdenv.ExitOK || !strings.Contains(log, `not one the round offers`) {
		t.Fatalf("an option not offered: exit %d\n%s", code, log)
	}
	if got := replies(p); len(got) != 1 || !strings.Contains(got[0].Body, "split the change") {
		t.Fatalf("the reply lists the options: %+v", got)
	}
	event = p.commentEvent("issue_comment.created.json", writer, 9201, "/agc decide code-review split the change: two PRs", false)
	if code, log := p.decideIn(ws, event); code != cmdenv.ExitOK || p.runOn(p.head).Conclusion != "failure" ||
		bindingOf(t, p.runOn(p.head)).Decision.Option != "split the change" {
		t.Fatalf("the gate's own option: exit %d %+v\n%s", code, p.runOn(p.head), log)
	}

	// A comment made before the round it would decide on completed.
	event = p.commentEvent("issue_comment.created.json", writer, 9202, "/agc decide code-review accept: stale", false)
	var payload map[string]any
	data, _ := os.ReadFile(event)
	json.Unmarshal(data, &payload)
	old := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	payload["comment"].(map[string]any)["created_at"], payload["comment"].(map[string]any)["updated_at"] = old, old
	data, _ = json.Marshal(payload)
	os.WriteFile(event, data, 0o644)
	if code, log := p.decideIn(ws, event); code != cmdenv.ExitOK || !strings.Contains(log, "after the comment was made") {
		t.Fatalf("a stale comment: exit %d\n%s", code, log)
	}
	if got := carry.Short(p.head); p.runOn(p.head).Conclusion != "failure" {
		t.Errorf("a stale decision changed the check on %s", got)
	}
}

// escalation is the review gate's answer at its bound: escalate, with a
// decide remedy offering the gate's own option besides accept and block.
func (p *carryPR) escalation() {
	p.review()
	path := filepath.Join(p.repo.Dir, "review.json")
	data, _ := os.ReadFile(path)
	var r map[string]any
	json.Unmarshal(data, &r)
	r["verdict"], r["attempt"] = "escalate", map[string]any{"n": 3, "budget": 3}
	f := r["findings"].([]any)[0].(map[string]any)
	f["remedy"] = map[string]any{"kind": "decide", "ask": "the maintainers", "options": []string{"accept", "block", "split the change"}}
	data, _ = json.Marshal(r)
	os.WriteFile(path, data, 0o644)
}

// TestDecisionOptionsOfTheEscalation keeps decide and the Action's own
// escalation (package rounds) in step: its two options are offered, and
// "accept as is" passes the check while "keep blocking" does not.
func TestDecisionOptionsOfTheEscalation(t *testing.T) {
	r := &agc.Response{Findings: []agc.Finding{{Remedy: agc.Remedy{Kind: agc.RemedyDecide, Ask: "x",
		Options: []string{rounds.OptionAccept, rounds.OptionKeepBlocking}}}}}
	for option, want := range map[string]string{rounds.OptionAccept: "success", rounds.OptionKeepBlocking: "failure"} {
		if o, why := decide.Choose(option, r); why != nil || decide.Conclusion(o) != want {
			t.Errorf("option %q: %q %v, conclusion %s, want %s", option, o, why, decide.Conclusion(o), want)
		}
	}
}

// TestActionDecidesOnALongPullRequest: GitHub lists at most 250 commits
// of a pull request, so its head is not the last commit listed once it
// has more; the head a decision binds to is the one GET /pulls/{n}
// names.
func TestActionDecidesOnALongPullRequest(t *testing.T) {
	p := newCarryPR(t)
	p.repo.Git("branch", "master", "refs/remotes/origin/main")
	ev := p.push("src/a.go", "package a // the change under review\n")
	h0 := p.head
	p.review()
	if code, out, log := p.action(ev, map[string]string{"agc": "code-review=review.json", "scope-file": ".github/agc-scope", "gate-config": ".github/review.md"}); code != cmdenv.ExitFail {
		t.Fatalf("the gate blocks: exit %d %v\n%s", code, out, log)
	}
	judged := p.runOn(h0)
	p.srv.Snapshot(func(prs map[string]*ghtest.PullRequest, _ []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		pr := prs[prfixture.Repo+"#2"]
		var earlier []string
		for i := range 300 {
			earlier = append(earlier, strings.Repeat("0", 36)+itoa(int64(1000+i)))
		}
		pr.Commits = append(earlier, pr.Commits...)
	})
	event := p.commentEvent("issue_comment.created.json", writer, 9200, decision, false)
	if code, log := p.decideIn(p.defaultBranch(), event); code != cmdenv.ExitOK || strings.Contains(log, "is not taken as a decision") {
		t.Fatalf("exit %d\n%s", code, log)
	}
	if run := p.runOn(h0); run.ID == judged.ID || run.Title != "decided by octocat: accept" {
		t.Errorf("no decision on the head %s: %+v", h0, run)
	}
}

// TestRepliedToCountsOnlyOwnReplies: a reply to the comment by another
// login (a forged marker) does not count as this run's; this login's
// reply to that comment does, and to another comment does not.
func TestRepliedToCountsOnlyOwnReplies(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	client := func(token string) *ghapi.Client {
		c, err := ghapi.New(ghapi.Config{Owner: "Codertocat", Repo: "Hello-World", Token: token, BaseURL: srv.URL(), GraphQLURL: srv.GraphQLURL()})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	ctx := context.Background()
	ours, other := client(ghtest.TokenActions), client(ghtest.TokenOther)
	if err := other.Reply(ctx, 2, decide.Reply(77, "forged by another bot")); err != nil {
		t.Fatal(err)
	}
	if ok, err := repliedTo(ctx, ours, 2, 77); err != nil || ok {
		t.Fatalf("another login's reply counts as ours: %v %v", ok, err)
	}
	if err := ours.Reply(ctx, 2, decide.Reply(77, "a reader's comment")); err != nil {
		t.Fatal(err)
	}
	if ok, err := repliedTo(ctx, ours, 2, 77); err != nil || !ok {
		t.Fatalf("our reply is not found: %v %v", ok, err)
	}
	if ok, _ := repliedTo(ctx, ours, 2, 78); ok {
		t.Fatal("a reply to another comment counts")
	}
}
