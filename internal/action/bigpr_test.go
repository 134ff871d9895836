package action

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/fingerprint/gittest"
	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/internal/agctest"
	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/internal/prfixture"
)

// TestActionReadsTheDiffGitHubDoesNotGive: GitHub lists a file whose diff
// is too large without its patch, and a binary file without one too. The
// Action reads the first's diff from the clone (git diff base...head), so
// its finding is inline; the binary file's finding goes to the file's
// entry in the review; the log says why.
func TestActionReadsTheDiffGitHubDoesNotGive(t *testing.T) {
	repo := gittest.New(t)
	var before, after strings.Builder
	for i := 1; i <= 400; i++ {
		fmt.Fprintf(&before, "var v%d = %d\n", i, i)
		fmt.Fprintf(&after, "var v%d = %d\n", i, i*2)
	}
	bigBase, bigHead := "package big\n\n"+before.String(), "package big\n\n"+after.String()
	repo.Write("big.go", bigBase, "logo.png", "\x89PNG\x00\x01")
	base := repo.Commit("base")
	repo.Write("big.go", bigHead, "logo.png", "\x89PNG\x00\x02")
	head := repo.Commit("head")

	srv := ghtest.New(t, ghtest.Options{MaxPatchBytes: 10000})
	srv.SetHead(prfixture.Repo, 2, head, []ghtest.File{{Path: "big.go", Base: bigBase, Head: bigHead}, {Path: "logo.png", Base: "\x89PNG\x00\x01", Head: "\x89PNG\x00\x02", Binary: true}})
	srv.Snapshot(func(prs map[string]*ghtest.PullRequest, _ []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		prs[prfixture.Repo+"#2"].BaseSHA = base
	})
	if srv.PR(prfixture.Repo, 2).Patch("big.go") == "" || len(srv.PR(prfixture.Repo, 2).Patch("big.go")) <= 10000 {
		t.Fatal("the fixture's patch is not too large for the emulator to send")
	}
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
