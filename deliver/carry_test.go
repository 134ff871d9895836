package deliver

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/carry"
	"github.com/agcgate/agc-action/fingerprint"
	"github.com/agcgate/agc-action/fingerprint/gittest"
	"github.com/agcgate/agc-action/ghapi"
	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/review"
	"github.com/google/go-github/v62/github"
)

// carryPR is a pull request in a real git repository (for fingerprints)
// and in the emulator (for check runs): branch pr off main, whose scope
// file is src/** and whose gate config is .agc/review.md.
type carryPR struct {
	t    *testing.T
	r    *gittest.Repo
	g    *fingerprint.Git
	srv  *ghtest.Server
	ours *ghapi.Client // the Actions token: app 15368
}

func newCarryPR(t *testing.T) *carryPR {
	r := gittest.New(t)
	r.Write("src/a.go", "package a\n", "docs/README.md", "# docs\n", ".agc/scope", "src/**\n", ".agc/review.md", "Review src/.\n")
	r.Commit("base")
	r.Git("checkout", "-q", "-b", "pr")
	g := &fingerprint.Git{Dir: r.Dir}
	t.Cleanup(func() { g.Close() })
	srv := ghtest.New(t, ghtest.Options{})
	return &carryPR{t: t, r: r, g: g, srv: srv, ours: newClient(t, srv, ghtest.TokenActions, &fakeSleep{})}
}

// workflow is the scope file read from main, and the gate's config.
func (p *carryPR) workflow() carry.Workflow {
	p.t.Helper()
	w, err := carry.ReadWorkflow(context.Background(), p.g, carry.ScopeSource{File: ".agc/scope", Base: "main"}, []string{".agc/review.md"})
	if err != nil {
		p.t.Fatal(err)
	}
	return w
}

// push commits files (path, content pairs) to the pull request.
func (p *carryPR) push(pathContent ...string) string {
	p.t.Helper()
	p.r.Write(pathContent...)
	sha := p.r.Commit("push")
	p.srv.SetHead(testRepo, 1, sha, nil)
	return sha
}

// judge runs the gate at sha: its response, bound over the scope at main,
// delivered as a check run with the client's token.
func (p *carryPR) judge(c *ghapi.Client, sha, verdict string) *agc.Response {
	p.t.Helper()
	var fs []agc.Finding
	if verdict == agc.Block {
		fs = append(fs, finding("review", "nil-deref", "src/a.go:1", agc.Blocking))
	}
	resp := response("review", verdict, fs...)
	resp.Gate = agc.Gate{ID: "review", Kind: agc.Judgment, Version: "1.0"}
	resp.Subject = agc.Subject{Kind: agc.SubjectPullRequest, Fingerprint: "sha256:the-gate's", Scope: []string{"src/**"}}
	b, err := carry.Bind(context.Background(), carry.RepoFingerprinter(p.g), p.workflow(), resp.Gate, sha, sha)
	if err != nil {
		p.t.Fatal(err)
	}
	if _, err := Deliver(context.Background(), c, []agc.Doc{{Response: resp}}, Options{HeadSHA: sha, Check: true, Plan: review.PlanOptions{Head: files{}},
		Bindings: map[string]carry.Binding{"review": b}}); err != nil {
		p.t.Fatal(err)
	}
	return resp
}

func (p *carryPR) carry(head, before string) *carry.Result {
	p.t.Helper()
	res, err := carry.Gate(context.Background(), CarryRuns(p.ours), carry.Options{Gate: "review", HeadSHA: head, Before: before, PR: 1,
		Workflow: p.workflow(), Compute: carry.RepoFingerprinter(p.g), Have: carry.Reachable(p.g, "")})
	if err != nil {
		p.t.Fatal(err)
	}
	return res
}

// runsOn returns the check runs on sha, as the emulator holds them.
func (p *carryPR) runsOn(sha string) []ghtest.CheckRun {
	var out []ghtest.CheckRun
	p.srv.Snapshot(func(_ map[string]*ghtest.PullRequest, runs []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		for _, r := range runs {
			if r.HeadSHA == sha {
				out = append(out, *r)
			}
		}
	})
	return out
}

// wantCarried checks that head has exactly one check run, carried from the
// run on judged with its conclusion and response.
func (p *carryPR) wantCarried(res *carry.Result, head, judged string, judgedResp *agc.Response) {
	p.t.Helper()
	if !res.Carried || res.JudgedSHA != judged {
		p.t.Fatalf("carry to %s: %+v, want carried from %s", head[:7], res, judged[:7])
	}
	runs, orig := p.runsOn(head), p.runsOn(judged)
	if len(runs) != 1 || len(orig) != 1 {
		p.t.Fatalf("runs on head %d, on the judged commit %d: want 1 and 1", len(runs), len(orig))
	}
	got := runs[0]
	wantTitle := "carried from " + judged[:7] + ": scope unchanged"
	if got.Name != "agc/review" || got.Conclusion != review.Conclusion(judgedResp.Verdict) || got.Title != wantTitle ||
		got.App.AppID != carry.ActionsAppID || got.Status != "completed" || got.DetailsURL != "https://github.com/"+testRepo+"/runs/"+itoa(orig[0].ID) {
		p.t.Errorf("carried run: name %q conclusion %q title %q app %d status %q details %q; want agc/review, %q, %q, app %d, the original's link",
			got.Name, got.Conclusion, got.Title, got.App.AppID, got.Status, got.DetailsURL, review.Conclusion(judgedResp.Verdict), wantTitle, carry.ActionsAppID)
	}
	if !strings.Contains(got.Summary, orig[0].DetailsURL) && !strings.Contains(got.Summary, "/runs/"+itoa(orig[0].ID)) {
		p.t.Errorf("carried run summary does not link the original: %s", got.Summary)
	}
	carried, err := readBackText(got.Text)
	if err != nil {
		p.t.Fatal(err)
	}
	b, err := carry.ReadBinding(got.Text)
	if err != nil || b == nil || b.SHA != judged || b.CarriedTo != head {
		p.t.Fatalf("carried run's binding record %+v (%v), want judged on %s, carried to %s", b, err, judged[:7], head[:7])
	}
	rec, ok, err := carry.ReadRecord(carried)
	if err != nil || !ok || rec != (carry.Record{SHA: judged, Fingerprint: b.Fingerprint, To: head}) {
		p.t.Errorf("carried record %+v (%v, %v), want from %s to %s", rec, ok, err, judged[:7], head[:7])
	}
	if carried.Verdict != judgedResp.Verdict || len(carried.Findings) != len(judgedResp.Findings) || carried.Subject.Fingerprint != judgedResp.Subject.Fingerprint {
		p.t.Errorf("carried response: verdict %s, %d findings; want %s, %d", carried.Verdict, len(carried.Findings), judgedResp.Verdict, len(judgedResp.Findings))
	}
}

func (p *carryPR) wantNotCarried(res *carry.Result, head string, change string) {
	p.t.Helper()
	if res.Carried || len(p.runsOn(head)) != 0 {
		p.t.Fatalf("carry to %s: %+v with %d runs, want not carried and no run", head[:7], res, len(p.runsOn(head)))
	}
	if change != "" && !slices.Contains(res.Changes, change) {
		p.t.Errorf("changes %q, want %q among them (reason %s)", res.Changes, change, res.Reason)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func readBackText(text string) (*agc.Response, error) {
	raw, err := review.ReadBackRaw(&github.CheckRun{Output: &github.CheckRunOutput{Text: &text}})
	if err != nil {
		return nil, err
	}
	return agc.Decode("check run", raw, agc.Limits{})
}

// TestCarryThreePushes walks a pull request through three pushes against
// the emulator: docs only (carried), an edit in scope (not carried: the
// gate runs again), docs only again (carried from the head the gate judged
// last).
func TestCarryThreePushes(t *testing.T) {
	p := newCarryPR(t)
	h0 := p.push("src/a.go", "package a // pr\n")
	block := p.judge(p.ours, h0, agc.Block)

	h1 := p.push("docs/README.md", "# docs 2\n")
	p.wantCarried(p.carry(h1, h0), h1, h0, block) // a block stays a block

	h2 := p.push("src/a.go", "package a // fixed\n")
	p.wantNotCarried(p.carry(h2, h1), h2, "src/a.go modified")
	allow := p.judge(p.ours, h2, agc.Allow)

	h3 := p.push("docs/README.md", "# docs 3\n")
	p.wantCarried(p.carry(h3, h2), h3, h2, allow)

	// A carried run carries on, still naming the head the gate judged.
	h4 := p.push("docs/README.md", "# docs 4\n")
	res := p.carry(h4, h3)
	if !res.Carried || res.JudgedSHA != h2 || p.runsOn(h4)[0].Title != "carried from "+h2[:7]+": scope unchanged" {
		t.Errorf("carry of a carry: %+v", res)
	}
	if n := len(p.runsOn(h0)) + len(p.runsOn(h1)) + len(p.runsOn(h2)) + len(p.runsOn(h3)); n != 4 {
		t.Errorf("%d check runs on the first four heads, want one each", n)
	}
}

// Without a synchronize event's before, the pull request's commits are the
// earlier heads: the newest with a trusted run is used.
func TestCarryFromPullRequestCommits(t *testing.T) {
	p := newCarryPR(t)
	h0 := p.push("src/a.go", "package a // pr\n")
	block := p.judge(p.ours, h0, agc.Block)
	h1 := p.push("docs/README.md", "# docs 2\n") // a cancelled run: nothing on h1
	h2 := p.push("docs/README.md", "# docs 3\n")
	p.wantCarried(p.carry(h2, ""), h2, h0, block)
	if len(p.runsOn(h1)) != 0 {
		t.Errorf("a run was posted on the skipped head %s", h1[:7])
	}
	if c := p.srv.Counts()["pulls/list-commits"]; c != 1 {
		t.Errorf("pulls/list-commits called %d times, want 1", c)
	}
}

// A check run of the same name from another app is ignored, even when it
// is newer and its response matches the content.
func TestCarryIgnoresForgedRun(t *testing.T) {
	p := newCarryPR(t)
	other := newClient(t, p.srv, ghtest.TokenOther, &fakeSleep{})
	h0 := p.push("src/a.go", "package a // pr\n")
	p.judge(other, h0, agc.Allow) // forged: only run on h0
	h1 := p.push("docs/README.md", "# docs 2\n")
	res := p.carry(h1, h0)
	p.wantNotCarried(res, h1, "")
	if !strings.Contains(res.Reason, "no completed agc/review check run by app 15368") {
		t.Errorf("reason %q", res.Reason)
	}

	block := p.judge(p.ours, h0, agc.Block)
	p.judge(other, h0, agc.Allow) // a newer forged allow
	res = p.carry(h1, h0)
	runs := p.runsOn(h1)
	if !res.Carried || len(runs) != 1 || runs[0].Conclusion != "failure" || runs[0].App.AppID != carry.ActionsAppID {
		t.Fatalf("carry with a newer forged run present: %+v, runs %+v", res, runs)
	}
	if carried, err := readBackText(runs[0].Text); err != nil || carried.Verdict != block.Verdict {
		t.Errorf("carried response %v, %v: want our block", carried, err)
	}
}

func TestCarryGateConfigChangeVoids(t *testing.T) {
	p := newCarryPR(t)
	h0 := p.push("src/a.go", "package a // pr\n")
	p.judge(p.ours, h0, agc.Allow)
	h1 := p.push(".agc/review.md", "Review src/, and be lenient.\n")
	p.wantNotCarried(p.carry(h1, h0), h1, "gate config .agc/review.md modified")
}

// The scope file is read from the base branch: a pull request that shrinks
// it still has the edits it left out of scope judged.
func TestCarryScopeFileFromBase(t *testing.T) {
	p := newCarryPR(t)
	h0 := p.push(".agc/scope", "src/b/**\n", "src/a.go", "package a // pr\n")
	p.judge(p.ours, h0, agc.Allow)
	h1 := p.push("src/a.go", "package a // sneaky\n")
	p.wantNotCarried(p.carry(h1, h0), h1, "src/a.go modified")
}

// TestCommitPullRequests: the pull requests GitHub lists for a commit,
// with the merge commit only of the merged one (an open pull request's
// merge_commit_sha is its test merge, not a merge).
func TestCommitPullRequests(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	c := newClient(t, srv, ghtest.TokenActions, &fakeSleep{})
	const head, merge = "1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222"
	srv.SetHead(testRepo, 4, head, nil)
	srv.SetHead(testRepo, 5, head, nil)
	srv.Merge(testRepo, 4, "main", merge)
	for sha, want := range map[string][]carry.PullRequest{
		head:  {{Number: 5, Base: "main"}, {Number: 4, Base: "main", MergeCommitSHA: merge}},
		merge: {{Number: 4, Base: "main", MergeCommitSHA: merge}},
	} {
		got, err := CarryRuns(c).CommitPullRequests(context.Background(), sha)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%s: %+v, %v; want %+v", sha[:7], got, err, want)
		}
	}
	if n, err := carry.MergedPR(context.Background(), CarryRuns(c), merge, "main"); n != 4 || err != nil {
		t.Errorf("MergedPR = %d, %v", n, err)
	}
}

// TestCarryRunsCreateAndList: a run created through CarryRuns is listed
// back with when it completed and the app that wrote it.
func TestCarryRunsCreateAndList(t *testing.T) {
	ctx := context.Background()
	srv := ghtest.New(t, ghtest.Options{})
	runs := CarryRuns(newClient(t, srv, ghtest.TokenActions, nil))
	if err := runs.Create(ctx, carry.NewCheckRun{Name: "agc/code-review", HeadSHA: headSHA, Conclusion: "success", Title: "t", Summary: "s"}); err != nil {
		t.Fatal(err)
	}
	got, err := runs.List(ctx, headSHA, "agc/code-review")
	if err != nil || len(got) != 1 || got[0].Completed.IsZero() || got[0].AppID != carry.ActionsAppID {
		t.Fatalf("gate runs %+v, %v", got, err)
	}
}
