package carry

import (
	"context"
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
	f.post(ourApp, n.HeadSHA, n.Conclusion, n.Response)
	f.runs[len(f.runs)-1].HTMLURL += "#" + n.Title
	return nil
}

func (f *fakeRuns) post(app int64, sha, conclusion string, resp []byte) {
	f.nextID++
	f.runs = append(f.runs, CheckRun{ID: f.nextID, AppID: app, Name: "agc/review", HeadSHA: sha, Status: "completed",
		Conclusion: conclusion, HTMLURL: fmt.Sprintf("https://github.invalid/runs/%d", f.nextID), Response: resp})
}

func (f *fakeRuns) on(sha string) []CheckRun {
	out, _ := f.List(context.Background(), sha, "agc/review")
	return out
}

// computer fingerprints revs of r with the scope file read from main.
func computer(t *testing.T, r *gittest.Repo) Fingerprinter {
	g := &fingerprint.Git{Dir: r.Dir}
	t.Cleanup(func() { g.Close() })
	return RepoFingerprinter(g, Scoping{ScopeFile: ".agc/scope", Base: "main", GateConfigs: []string{".agc/review.md"}})
}

// judge is the gate: it answers block at rev and its run is posted by app.
func judge(t *testing.T, runs *fakeRuns, compute Fingerprinter, app int64, rev string) {
	t.Helper()
	gate := agc.Gate{ID: "review", Kind: agc.Judgment, Version: "1.0"}
	resp := &agc.Response{AGC: "0.1", Gate: gate, Verdict: agc.Block,
		Subject: agc.Subject{Kind: agc.SubjectPullRequest, Scope: []string{"src/**"}},
		Findings: []agc.Finding{{ID: "f1", Class: "bug", Location: "src/a.go:1", What: "w", Why: "y", Severity: agc.Blocking,
			Status: agc.StatusNew, Remedy: agc.Remedy{Kind: agc.RemedyCommand, Run: "go vet"}, Check: agc.Check{Kind: agc.CheckCommand, Run: "go test"}}},
		Coverage: agc.Coverage{Complete: true, Classes: []string{"bug"}}, Attempt: agc.Attempt{N: 1, Budget: 3}}
	res, err := compute(context.Background(), rev, resp)
	if err != nil {
		t.Fatal(err)
	}
	resp.Subject.Fingerprint = res.Fingerprint
	raw, err := agc.Encode(resp)
	if err != nil {
		t.Fatal(err)
	}
	runs.post(app, rev, "failure", raw)
}

func TestThreePushes(t *testing.T) {
	r := gittest.New(t)
	r.Write("src/a.go", "package a\n", "docs/README.md", "# docs\n", ".agc/scope", "src/**\n", ".agc/review.md", "Review.\n")
	r.Commit("base")
	r.Git("checkout", "-q", "-b", "pr")
	r.Write("src/a.go", "package a // pr\n")
	h1 := r.Commit("pr")
	runs := &fakeRuns{}
	compute := computer(t, r)
	judge(t, runs, compute, ourApp, h1)
	ctx := context.Background()
	push := func(path, content string, heads ...string) (string, *Result) {
		r.Write(path, content)
		h := r.Commit("push")
		res, err := FromHeads(ctx, runs, Input{GateID: "review", AppID: ourApp, Head: h, Previous: heads, Compute: compute})
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
	judge(t, runs, compute, ourApp, h3) // the gate runs on h3

	h4, res := push("docs/README.md", "# docs 3\n", h3, h2, h1)
	if !res.Carried || res.From.HeadSHA != h3 || len(runs.on(h4)) != 1 {
		t.Errorf("docs-only push after the edit: %+v", res)
	}
}

func TestForgedRunFromAnotherAppIgnored(t *testing.T) {
	r := gittest.New(t)
	r.Write("src/a.go", "package a\n", ".agc/scope", "src/**\n", ".agc/review.md", "Review.\n")
	h1 := r.Commit("base")
	runs := &fakeRuns{}
	compute := computer(t, r)
	judge(t, runs, compute, otherApp, h1) // a forged run, same name, matching fingerprint
	r.Write("docs/x.md", "x\n")
	h2 := r.Commit("docs")
	res, err := FromHeads(context.Background(), runs, Input{GateID: "review", AppID: ourApp, Head: h2, Previous: []string{h1}, Compute: compute})
	if err != nil {
		t.Fatal(err)
	}
	if res.Carried || len(runs.on(h2)) != 0 || !strings.Contains(res.Reason, "no completed agc/review check run by app 15368") {
		t.Errorf("forged run: %+v", res)
	}
	judge(t, runs, compute, ourApp, h1) // our own run is trusted
	if res, err := FromHeads(context.Background(), runs, Input{GateID: "review", AppID: ourApp, Head: h2, Previous: []string{h1}, Compute: compute}); err != nil || !res.Carried {
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
	if got := latestTrusted(list, "agc/review", "a", ourApp); got == nil || got.ID != 6 {
		t.Errorf("latestTrusted = %+v, want run 6", got)
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
	r := gittest.New(t)
	r.Write("src/a.go", "package a\n", ".agc/scope", "src/**\n", ".agc/review.md", "Review.\n")
	h1 := r.Commit("base")
	runs := &fakeRuns{}
	compute := computer(t, r)
	judge(t, runs, compute, ourApp, h1) // a block
	runs.runs[0].Conclusion = "skipped"
	r.Write("docs/x.md", "x\n")
	h2 := r.Commit("docs")
	conclusion := func(v string) string { return map[string]string{agc.Block: "failure"}[v] }
	res, err := FromHeads(context.Background(), runs, Input{GateID: "review", AppID: ourApp, Head: h2, Previous: []string{h1}, Compute: compute, Conclusion: conclusion})
	if err != nil || res.Carried || !strings.Contains(res.Reason, `conclusion "skipped" is not that of its verdict block`) {
		t.Errorf("skipped run: %+v, %v", res, err)
	}
	runs.runs[0].Conclusion = "failure"
	if res, err := FromHeads(context.Background(), runs, Input{GateID: "review", AppID: ourApp, Head: h2, Previous: []string{h1}, Compute: compute, Conclusion: conclusion}); err != nil || !res.Carried {
		t.Errorf("failure run: %+v, %v", res, err)
	}
}
