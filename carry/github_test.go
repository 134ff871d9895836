package carry

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/fingerprint"
	"github.com/agcgate/agc-action/fingerprint/gittest"
)

const ourApp, otherApp = 15368, 999

// fakeRuns keeps check runs in memory, as GitHub would list them.
type fakeRuns struct {
	runs   []CheckRun
	nextID int64
}

func (f *fakeRuns) List(_ context.Context, sha, name string) ([]CheckRun, error) {
	var out []CheckRun
	for _, r := range f.runs {
		if r.HeadSHA == sha && r.Name == name {
			out = append(out, r)
		}
	}
	return out, nil
}

func (f *fakeRuns) Create(_ context.Context, n NewCheckRun) error {
	f.post(ourApp, n.HeadSHA, n.Conclusion, n.Response, n.Binding)
	f.runs[len(f.runs)-1].HTMLURL += "#" + n.Title
	return nil
}

func (f *fakeRuns) post(app int64, sha, conclusion string, resp []byte, b *Binding) {
	f.nextID++
	f.runs = append(f.runs, CheckRun{ID: f.nextID, AppID: app, Name: "agc/review", HeadSHA: sha, Status: "completed",
		Conclusion: conclusion, HTMLURL: fmt.Sprintf("https://github.invalid/runs/%d", f.nextID), Response: resp, Binding: b})
}

func (f *fakeRuns) on(sha string) []CheckRun {
	out, _ := f.List(context.Background(), sha, "agc/review")
	return out
}

// gitRepo is r read through fingerprint.Git.
func gitRepo(t *testing.T, r *gittest.Repo) *fingerprint.Git {
	g := &fingerprint.Git{Dir: r.Dir}
	t.Cleanup(func() { g.Close() })
	return g
}

// workflow is the scope file read from main, and the gate's config.
func workflow(t *testing.T, g *fingerprint.Git) Workflow {
	t.Helper()
	w, err := ReadWorkflow(context.Background(), g, ScopeSource{File: ".agc/scope", Base: "main"}, []string{".agc/review.md"})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// carryInput is what fromHeads is given to carry gate review to head.
type carryInput struct {
	Options
	previous   []string
	conclusion func(verdict string) string
}

func input(t *testing.T, r *gittest.Repo, head string, previous ...string) carryInput {
	g := gitRepo(t, r)
	return carryInput{Options: Options{Gate: "review", AppID: ourApp, HeadSHA: head, Workflow: workflow(t, g),
		Compute: RepoFingerprinter(g), Have: Reachable(g, "")},
		previous: previous, conclusion: func(string) string { return "failure" }}
}

// carry runs fromHeads on in.
func (in carryInput) carry(ctx context.Context, runs CheckRuns) (*Result, error) {
	return fromHeads(ctx, runs, in.Options, in.previous, in.conclusion)
}

// judge is the gate: it answers block at rev, agc-action binds the answer,
// and the run is posted by app.
func judge(t *testing.T, runs *fakeRuns, r *gittest.Repo, app int64, rev string) {
	t.Helper()
	gate := agc.Gate{ID: "review", Kind: agc.Judgment, Version: "1.0"}
	resp := &agc.Response{AGC: "0.1", Gate: gate, Verdict: agc.Block,
		Subject: agc.Subject{Kind: agc.SubjectPullRequest, Scope: []string{"src/**"}},
		Findings: []agc.Finding{{ID: "f1", Class: "bug", Location: "src/a.go:1", What: "w", Why: "y", Severity: agc.Blocking,
			Status: agc.StatusNew, Remedy: agc.Remedy{Kind: agc.RemedyCommand, Run: "go vet"}, Check: agc.Check{Kind: agc.CheckCommand, Run: "go test"}}},
		Coverage: agc.Coverage{Complete: true, Classes: []string{"bug"}}, Attempt: agc.Attempt{N: 1, Budget: 3}}
	g := gitRepo(t, r)
	b, err := Bind(context.Background(), RepoFingerprinter(g), workflow(t, g), gate, rev, rev)
	if err != nil {
		t.Fatal(err)
	}
	resp.Subject.Fingerprint = "sha256:whatever-the-gate-said"
	raw, err := agc.Encode(resp)
	if err != nil {
		t.Fatal(err)
	}
	runs.post(app, rev, "failure", raw, &b)
}

// judgedBase is a repository whose workflow scopes src/**, with its first
// commit h1 judged (a block) by app.
func judgedBase(t *testing.T, app int64) (r *gittest.Repo, runs *fakeRuns, h1 string) {
	t.Helper()
	r = gittest.New(t)
	r.Write("src/a.go", "package a\n", ".agc/scope", "src/**\n", ".agc/review.md", "Review.\n")
	h1 = r.Commit("base")
	runs = &fakeRuns{}
	judge(t, runs, r, app, h1)
	return r, runs, h1
}

// docsPush commits a change outside the scope and returns the commit.
func docsPush(r *gittest.Repo) string {
	r.Write("docs/x.md", "x\n")
	return r.Commit("docs")
}

func TestThreePushes(t *testing.T) {
	r := gittest.New(t)
	r.Write("src/a.go", "package a\n", "docs/README.md", "# docs\n", ".agc/scope", "src/**\n", ".agc/review.md", "Review.\n")
	r.Commit("base")
	r.Git("checkout", "-q", "-b", "pr")
	r.Write("src/a.go", "package a // pr\n")
	h1 := r.Commit("pr")
	runs := &fakeRuns{}
	judge(t, runs, r, ourApp, h1)
	ctx := context.Background()
	push := func(path, content string, heads ...string) (string, *Result) {
		r.Write(path, content)
		h := r.Commit("push")
		res, err := input(t, r, h, heads...).carry(ctx, runs)
		if err != nil {
			t.Fatal(err)
		}
		return h, res
	}

	h2, res := push("docs/README.md", "# docs 2\n", h1)
	if !res.Carried || len(runs.on(h2)) != 1 {
		t.Fatalf("docs-only push: %+v, runs on head %v", res, runs.on(h2))
	}
	got := runs.on(h2)[0]
	if got.Conclusion != "failure" || !strings.Contains(got.HTMLURL, "carried from "+h1[:7]+": scope unchanged") {
		t.Errorf("carried run %+v: want the failure carried from %s", got, h1[:7])
	}
	carried, err := agc.Decode("carried", got.Response, agc.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if rec, ok, _ := ReadRecord(carried); !ok || rec.SHA != h1 || rec.To != h2 || carried.Verdict != agc.Block {
		t.Errorf("carried response: record %+v, verdict %s", rec, carried.Verdict)
	}

	h3, res := push("src/a.go", "package a // edited\n", h2, h1)
	if res.Carried || len(runs.on(h3)) != 0 || !strings.Contains(res.Reason, "scoped content changed") {
		t.Fatalf("in-scope push: %+v", res)
	}
	judge(t, runs, r, ourApp, h3) // the gate runs on h3

	h4, res := push("docs/README.md", "# docs 3\n", h3, h2, h1)
	if !res.Carried || res.From.HeadSHA != h3 || len(runs.on(h4)) != 1 {
		t.Errorf("docs-only push after the edit: %+v", res)
	}
}

func TestForgedRunFromAnotherAppIgnored(t *testing.T) {
	r, runs, h1 := judgedBase(t, otherApp) // a forged run, same name, matching fingerprint
	h2 := docsPush(r)
	res, err := input(t, r, h2, h1).carry(context.Background(), runs)
	if err != nil {
		t.Fatal(err)
	}
	if res.Carried || len(runs.on(h2)) != 0 || !strings.Contains(res.Reason, "no completed agc/review check run by app 15368") {
		t.Errorf("forged run: %+v", res)
	}
	judge(t, runs, r, ourApp, h1) // our own run is trusted
	if res, err := input(t, r, h2, h1).carry(context.Background(), runs); err != nil || !res.Carried {
		t.Errorf("own run: %+v, %v", res, err)
	}
}

func TestLatestTrusted(t *testing.T) {
	list := []CheckRun{
		{ID: 5, AppID: ourApp, Name: "agc/review", HeadSHA: "a", Status: "completed"},
		{ID: 9, AppID: otherApp, Name: "agc/review", HeadSHA: "a", Status: "completed"},
		{ID: 7, AppID: ourApp, Name: "agc/review", HeadSHA: "a", Status: "in_progress"},
		{ID: 6, AppID: ourApp, Name: "agc/review", HeadSHA: "a", Status: "completed"},
		{ID: 8, AppID: ourApp, Name: "agc/other", HeadSHA: "a", Status: "completed"},
	}
	if got := LatestTrusted(list, "agc/review", "a", ourApp); got == nil || got.ID != 6 {
		t.Errorf("LatestTrusted = %+v, want run 6", got)
	}
}

func TestPreviousHeads(t *testing.T) {
	zero := strings.Repeat("0", 40)
	for _, tc := range []struct {
		name, head, before string
		commits            []string
		max                int
		want               []string
	}{
		{"before then commits newest first", "h", "b", []string{"c1", "b", "c2", "h"}, 0, []string{"b", "c2", "c1"}},
		{"no before", "h", "", []string{"c1", "c2", "h"}, 0, []string{"c2", "c1"}},
		{"zero before of a new branch", "h", zero, []string{"c1", "h"}, 0, []string{"c1"}},
		{"bounded", "h", "b", []string{"c1", "c2", "c3"}, 2, []string{"b", "c3"}},
		{"nothing", "h", "h", []string{"h"}, 0, nil},
	} {
		if got := PreviousHeads(tc.head, tc.before, tc.commits, tc.max); !slices.Equal(got, tc.want) {
			t.Errorf("%s: PreviousHeads = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// A run of our app whose conclusion is not its verdict's (a skipped or
// cancelled run) is not carried: "skipped" would pass a required check.
func TestCarryRefusesConclusionOfAnotherVerdict(t *testing.T) {
	r, runs, h1 := judgedBase(t, ourApp) // a block
	runs.runs[0].Conclusion = "skipped"
	h2 := docsPush(r)
	conclusion := func(v string) string { return map[string]string{agc.Block: "failure"}[v] }
	in := input(t, r, h2, h1)
	in.conclusion = conclusion
	res, err := in.carry(context.Background(), runs)
	if err != nil || res.Carried || !strings.Contains(res.Reason, `conclusion "skipped" is not that of its verdict block`) {
		t.Errorf("skipped run: %+v, %v", res, err)
	}
	runs.runs[0].Conclusion = "failure"
	if res, err := in.carry(context.Background(), runs); err != nil || !res.Carried {
		t.Errorf("failure run: %+v, %v", res, err)
	}
}

// A trusted run without a binding record is never carried, whatever its
// response says it judged: the answer was not bound by agc-action.
func TestCarryNeedsBinding(t *testing.T) {
	r, runs, h1 := judgedBase(t, ourApp)
	runs.runs[0].Binding = nil
	h2 := docsPush(r)
	res, err := input(t, r, h2, h1).carry(context.Background(), runs)
	if err != nil || res.Carried || len(runs.on(h2)) != 0 || !strings.Contains(res.Reason, "has no binding record") {
		t.Errorf("unbound run: %+v, %v", res, err)
	}
	runs.runs[0].BindingErr = "binding record: not closed"
	if res, _ := input(t, r, h2, h1).carry(context.Background(), runs); res.Carried || !strings.Contains(res.Reason, "not closed") {
		t.Errorf("broken record: %+v", res)
	}
}

// Where the commit judged can be read, its fingerprint is recomputed and
// must be the binding's; where it cannot (a shallow clone), the binding
// record of our own run stands for it.
func TestCarryRecomputesWhereItCan(t *testing.T) {
	r, runs, h1 := judgedBase(t, ourApp)
	h2 := docsPush(r)

	in := input(t, r, h2, h1)
	res, err := in.carry(context.Background(), runs)
	if err != nil || !res.Carried || !strings.Contains(res.Reason, "recomputed at "+h1[:7]) {
		t.Fatalf("in the clone: %+v, %v", res, err)
	}
	runs.runs = runs.runs[:1]
	in.Have = func(context.Context, string) error { return errors.New("a shallow clone") }
	if res, err = in.carry(context.Background(), runs); err != nil || !res.Carried || !strings.Contains(res.Reason, "by the binding record of check run 1: a shallow clone") {
		t.Fatalf("not in the clone: %+v, %v", res, err)
	}

	// A record whose commit does not have its fingerprint is refused where
	// the commit can be read.
	runs.runs = runs.runs[:1]
	b := *runs.runs[0].Binding
	b.SHA, b.Commit = h2, h2
	runs.runs[0].Binding, runs.runs[0].HeadSHA = &b, h2
	r.Write("src/a.go", "package a // edited\n")
	h3 := r.Commit("edit")
	b.Fingerprint = fingerprintAt(t, r, h3)
	res, err = input(t, r, h3, h2).carry(context.Background(), runs)
	if err != nil || res.Carried || !strings.Contains(res.Reason, "but recomputed there it is") {
		t.Errorf("a record that names the wrong commit: %+v, %v", res, err)
	}
}

func fingerprintAt(t *testing.T, r *gittest.Repo, rev string) string {
	t.Helper()
	g := gitRepo(t, r)
	res, err := RepoFingerprinter(g)(context.Background(), workflow(t, g).Options(agc.Gate{ID: "review", Version: "1.0"}, rev))
	if err != nil {
		t.Fatal(err)
	}
	return res.Fingerprint
}

// Without a scope the workflow defines, or with one that selects nothing
// now, nothing is carried.
func TestCarryNeedsTheWorkflowsScope(t *testing.T) {
	r, runs, h1 := judgedBase(t, ourApp)
	r.Git("rm", "-q", "-r", "src")
	h2 := r.Commit("no src any more")
	in := input(t, r, h2, h1)
	in.Workflow = Workflow{}
	if res, err := in.carry(context.Background(), runs); err != nil || res.Carried || !strings.Contains(res.Reason, "defines no scope") {
		t.Errorf("no scope: %+v, %v", res, err)
	}
	in = input(t, r, h2, h1)
	if res, err := in.carry(context.Background(), runs); err != nil || res.Carried || !strings.Contains(res.Reason, "selects no entry at "+h2[:7]) {
		t.Errorf("nothing selected: %+v, %v", res, err)
	}
}

type commitPulls []PullRequest

func (c commitPulls) CommitPullRequests(context.Context, string) ([]PullRequest, error) {
	return c, nil
}

// TestMergedPR: a push to the base branch carries from the pull request
// whose merge it is, and from no other the commit belongs to.
func TestMergedPR(t *testing.T) {
	const merge = "m0000000000000000000000000000000000000001"
	for _, tc := range []struct {
		name string
		prs  commitPulls
		want int
	}{
		{"merged", commitPulls{{Number: 7, Base: "main", MergeCommitSHA: merge}}, 7},
		{"open pull requests holding the commit", commitPulls{{Number: 8, Base: "main"}, {Number: 7, Base: "main", MergeCommitSHA: merge}}, 7},
		{"merged into another branch", commitPulls{{Number: 7, Base: "release", MergeCommitSHA: merge}}, 0},
		{"merged by another commit", commitPulls{{Number: 7, Base: "main", MergeCommitSHA: "m2"}}, 0},
		{"two claim it", commitPulls{{Number: 7, Base: "main", MergeCommitSHA: merge}, {Number: 9, Base: "main", MergeCommitSHA: merge}}, 0},
		{"none", nil, 0},
	} {
		if got, err := MergedPR(context.Background(), tc.prs, merge, "main"); got != tc.want || err != nil {
			t.Errorf("%s: MergedPR = %d, %v; want %d", tc.name, got, err, tc.want)
		}
	}
}
