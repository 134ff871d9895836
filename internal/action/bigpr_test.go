package action

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/fingerprint/gittest"
	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/internal/agctest"
	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/internal/prfixture"
	"github.com/agcgate/agc-action/review"
)

// TestActionReadsTheDiffGitHubDoesNotGive: GitHub lists a file whose diff
// is too large without its patch, and a binary file without one too. The
// Action reads the first's diff from the clone (git diff base...head), so
// its finding is inline; the binary file's finding goes to the file's
// entry in the review; the log says why.
func TestActionReadsTheDiffGitHubDoesNotGive(t *testing.T) {
	srv, repo, head := prfixture.BigDiff(t, prfixture.Repo, 2, ghtest.File{Path: "logo.png", Base: "\x89PNG\x00\x01", Head: "\x89PNG\x00\x02", Binary: true})
	r := agctest.Response("lint", agc.Block, agctest.Finding("lint", "big", "big.go:200", agc.Blocking), agctest.Finding("lint", "logo", "logo.png:1", agc.Advisory))
	data, _ := agc.Encode(r)
	writeFile(t, repo.Dir, "lint.json", data)

	_, code, out := runOnHead(t, srv, repo.Dir, head, pushEvent(t, "", head), map[string]string{"agc": "lint=lint.json"})
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, out)
	}
	var inline []string
	srv.Snapshot(func(prs map[string]*ghtest.PullRequest, _ []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		pr := prs[prfixture.Repo+"#2"]
		for _, c := range pr.Comments {
			inline = append(inline, fmt.Sprintf("%s:%d", c.Path, c.Line))
		}
		listed := false
		for _, rv := range pr.Reviews {
			listed = listed || strings.Contains(rv.Body, "gate=lint ") && strings.Contains(rv.Body, "id=lint/logo")
		}
		if !listed {
			t.Errorf("the binary file's finding is not in gate lint's review body")
		}
	})
	if strings.Join(inline, " ") != "big.go:200" {
		t.Errorf("inline comments %v, want big.go:200 (read from the clone)", inline)
	}
	if !strings.Contains(out, "logo.png: GitHub listed it without a patch (too large or binary), and the clone's diff has no hunks (git finds it binary)") {
		t.Errorf("the log does not say why logo.png's finding is not inline:\n%s", out)
	}
}

// TestActionRateLimitPastTheRetryBudget: GitHub rate-limits the first
// review (the run's third write, after both gates' check runs) for longer than the retry-budget input: the
// run does not wait, sends nothing more, names what it did not deliver,
// and exits 2; the check run, written first, is on the commit.
func TestActionRateLimitPastTheRetryBudget(t *testing.T) {
	srv, root := prfixture.Setup(t)
	copyFixture(t, root, prfixture.Patch, "agc-out/lint.json")
	srv.InjectWrite(3, ghtest.SecondaryRateLimit(429, 60), ghtest.SecondaryRateLimit(429, 60)) // two check runs, then the first review
	r := newActionRunner(t, srv, root, "pull_request", prfixture.Event).input("agc", "agc-out/*.json").input("retry-budget", "10")
	code, stdout := r.run()
	if code != cmdenv.ExitUsage || !strings.Contains(stdout, "::error title=agc-action::not delivered to GitHub: the review of agc/go-lint (1 new inline comments, 0 edits) (") {
		t.Errorf("exit %d, want 2 and what was not delivered:\n%s", code, stdout)
	}
	if srv.Writes() != 3 {
		t.Errorf("%d writes sent, want 3: nothing after the rate limit", srv.Writes())
	}
	if n := len(runsOn(srv, prfixture.HeadSHA)); n != 2 {
		t.Errorf("%d check runs on the head, want both gates'", n)
	}
}

// TestActionWaitsThroughItsEnv: GitHub rate-limits the first review for
// less than the retry budget; the Action waits what Retry-After asks with
// its Env's Sleep (no package variable), then delivers.
func TestActionWaitsThroughItsEnv(t *testing.T) {
	srv, root := prfixture.Setup(t)
	copyFixture(t, root, prfixture.Patch, "agc-out/lint.json")
	srv.InjectWrite(3, ghtest.SecondaryRateLimit(429, 5))
	r := newActionRunner(t, srv, root, "pull_request", prfixture.Event).input("agc", "agc-out/*.json").input("retry-budget", "60")
	code, stdout := r.run()
	if code == cmdenv.ExitUsage || strings.Contains(stdout, "not delivered") {
		t.Fatalf("exit %d, want the review delivered after the wait:\n%s", code, stdout)
	}
	if waits := r.sleeps.Waits(); len(waits) != 1 || waits[0] != 5*time.Second {
		t.Errorf("waits %v through the Env's Sleep, want [5s]", waits)
	}
}

// bigRepo is issue 18's scale in a real repository: 5,000 changed files
// (800 of those with findings lie past the 3,000 GitHub lists, so their
// diffs come from the clone), findings in 2,000 of them from four gates
// of 500, each gate's answers in its own file.
func bigRepo(tb testing.TB) (srv *ghtest.Server, root, head string, inputs map[string]string) {
	repo := gittest.New(tb)
	var base, next []string
	var ghFiles []ghtest.File
	for i := range 5000 {
		p := fmt.Sprintf("svc/m%04d/handler.go", i)
		base, next = append(base, p, "package m\n\nfunc H() {}\n"), append(next, p, "package m\n\nfunc H() {}\n\nvar added = 1\n")
		ghFiles = append(ghFiles, ghtest.File{Path: p, Base: base[len(base)-1], Head: next[len(next)-1]})
	}
	repo.Write(base...)
	baseSHA := repo.Commit("base")
	repo.Write(next...)
	head = repo.Commit("head")
	srv = ghtest.New(tb, ghtest.Options{})
	srv.SetHead(prfixture.Repo, 2, head, ghFiles)
	srv.Snapshot(func(prs map[string]*ghtest.PullRequest, _ []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		prs[prfixture.Repo+"#2"].BaseSHA = baseSHA
	})
	var gates [4][]agc.Finding
	n := 0
	for i := 4999; i >= 0; i-- { // the files past the 3,000 listed first: they take the inline comments
		if i%5 < 2 {
			g := fmt.Sprintf("scan%d", n%4)
			gates[n%4] = append(gates[n%4], agctest.Finding(g, fmt.Sprintf("f%04d", i), fmt.Sprintf("svc/m%04d/handler.go:5", i), agc.Blocking))
			n++
		}
	}
	var lines []string
	for k, fs := range gates {
		id := fmt.Sprintf("scan%d", k)
		data, _ := agc.Encode(agctest.Response(id, agc.Block, fs...))
		writeFile(tb, repo.Dir, id+".json", data)
		lines = append(lines, id+"="+id+".json")
	}
	return srv, repo.Dir, head, map[string]string{"agc": strings.Join(lines, "\n"), "fail-on": "never"}
}

// TestActionBigPullRequest: every one of the 2,000 findings is in its
// gate's check run, and 200 of them inline, all in files past the 3,000
// GitHub lists (their diffs read from the clone), within the ceiling.
func TestActionBigPullRequest(t *testing.T) {
	srv, root, head, inputs := bigRepo(t)
	_, code, out := runOnHead(t, srv, root, head, pushEvent(t, "", head), inputs)
	if code != cmdenv.ExitOK {
		t.Fatalf("exit %d\n%s", code, out)
	}
	inline, past := 0, 0
	srv.Snapshot(func(prs map[string]*ghtest.PullRequest, _ []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		for _, c := range prs[prfixture.Repo+"#2"].Comments {
			inline++
			if c.Path >= "svc/m3000" {
				past++
			}
		}
	})
	if inline != 200 || past != 200 {
		t.Errorf("%d inline comments, %d of them past the 3,000 files GitHub lists; want the run's ceiling of 200, all past (their diffs read from the clone)", inline, past)
	}
	for k := range 4 {
		run := runsOn(srv, head)[fmt.Sprintf("agc/scan%d", k)]
		if r := readBack(t, run); len(r.Findings) != 500 {
			t.Errorf("check run agc/scan%d holds %d findings, want 500", k, len(r.Findings))
		}
	}
	if w, ceiling := srv.Writes(), review.WriteCeiling(5, false); w > ceiling { // the four gates and agc-validate
		t.Errorf("%d writes, over the ceiling of %d", w, ceiling)
	}
	t.Logf("%d inline comments, %d of them past the 3,000 files GitHub lists; requests %v", inline, past, srv.Counts())
}

// BenchmarkActionBigPullRequest runs the Action from start to exit on
// bigRepo, against the emulator in this process: time, requests, writes,
// comments, and the process's peak RSS.
func BenchmarkActionBigPullRequest(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		srv, root, head, inputs := bigRepo(b)
		ev := map[string]any{"action": "opened", "number": 2, "pull_request": map[string]any{"number": 2,
			"head": map[string]any{"sha": head, "repo": map[string]any{"full_name": prfixture.Repo}},
			"base": map[string]any{"ref": "main", "repo": map[string]any{"full_name": prfixture.Repo}}}}
		data, _ := json.Marshal(ev)
		writeFile(b, root, "event.json", data)
		r := newActionRunner(b, srv, root, "pull_request", filepath.Join(root, "event.json"))
		r.env["GITHUB_SHA"] = head
		for k, v := range inputs {
			r.input(k, v)
		}
		b.StartTimer()
		code := r.quietRun()
		b.StopTimer()
		if code != cmdenv.ExitOK {
			b.Fatalf("exit %d", code)
		}
		reqs := 0
		for _, n := range srv.Counts() {
			reqs += n
		}
		b.ReportMetric(float64(reqs), "requests/op")
		b.ReportMetric(float64(srv.Writes()), "writes/op")
		b.ReportMetric(float64(len(srv.PR(prfixture.Repo, 2).Comments)), "comments/op")
		b.StartTimer()
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MiB")
	}
}
