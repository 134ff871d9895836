package ghcarry

import (
	"context"
	"fmt"
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
	return func(ctx context.Context, rev string, gate agc.Gate) (string, error) {
		g := &fingerprint.Git{Dir: r.Dir}
		defer g.Close()
		sc, err := fingerprint.ReadScopeFile(ctx, g, "main", ".agc/scope")
		if err != nil {
			return "", err
		}
		res, err := g.Compute(ctx, fingerprint.Options{Rev: rev, Scope: sc, GateID: gate.ID, GateVersion: gate.Version,
			GateConfigs: []string{".agc/review.md"}})
		if err != nil {
			return "", err
		}
		return res.Fingerprint, nil
	}
}

// judge is the gate: it answers block at rev and its run is posted by app.
func judge(t *testing.T, runs *fakeRuns, compute Fingerprinter, app int64, rev string) {
	t.Helper()
	gate := agc.Gate{ID: "review", Kind: agc.Judgment, Version: "1.0"}
	fp, err := compute(context.Background(), rev, gate)
	if err != nil {
		t.Fatal(err)
	}
	resp := &agc.Response{AGC: "0.1", Gate: gate, Verdict: agc.Block,
		Subject: agc.Subject{Kind: agc.SubjectPullRequest, Fingerprint: fp, Scope: []string{"src/**"}},
		Findings: []agc.Finding{{ID: "f1", Class: "bug", Location: "src/a.go:1", What: "w", Why: "y", Severity: agc.Blocking,
			Status: agc.StatusNew, Remedy: agc.Remedy{Kind: agc.RemedyCommand, Run: "go vet"}, Check: agc.Check{Kind: agc.CheckCommand, Run: "go test"}}},
		Coverage: agc.Coverage{Complete: true, Classes: []string{"bug"}}, Attempt: agc.Attempt{N: 1, Budget: 3}}
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
		res, err := Carry(ctx, runs, Input{GateID: "review", AppID: ourApp, Head: h, Previous: heads, Compute: compute})
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
	if rec, ok, _ := fingerprint.CarriedRecord(carried); !ok || rec.SHA != h1 || rec.To != h2 || carried.Verdict != agc.Block {
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
	res, err := Carry(context.Background(), runs, Input{GateID: "review", AppID: ourApp, Head: h2, Previous: []string{h1}, Compute: compute})
	if err != nil {
		t.Fatal(err)
	}
	if res.Carried || len(runs.on(h2)) != 0 || !strings.Contains(res.Reason, "no completed agc/review check run by app 15368") {
		t.Errorf("forged run: %+v", res)
	}
	judge(t, runs, compute, ourApp, h1) // our own run is trusted
	if res, err := Carry(context.Background(), runs, Input{GateID: "review", AppID: ourApp, Head: h2, Previous: []string{h1}, Compute: compute}); err != nil || !res.Carried {
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
