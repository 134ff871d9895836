package deliver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/fingerprint"
	"github.com/agcgate/agc-action/ghapi"
	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/review"
	"github.com/google/go-cmp/cmp"
)

// Big and busy pull requests (docs/github.md, "Big and busy pull
// requests"), each scenario against the emulator.

// deliverAt runs one delivery of r on pull request 2 for head sha, as the
// Action's run for that push does, and returns its report and log.
func deliverAt(t *testing.T, c *ghapi.Client, sha string, r *agc.Response, head files, diffs Diffs) (*Report, string, error) {
	t.Helper()
	var log bytes.Buffer
	rep, err := Deliver(context.Background(), c, []agc.Doc{{Response: r}}, Options{PR: 2, HeadSHA: sha, Review: true, Check: true,
		Plan: review.PlanOptions{Head: head}, Diffs: diffs, Log: &log})
	return rep, log.String(), err
}

// pushB is the second push of the race: db.go changes again.
func pushB(head files) []ghtest.File {
	base := "package db\n\nfunc Open() {\n" + lines("a", 20) + "}\n"
	return []ghtest.File{{Path: "db.go", Base: base, Head: head["db.go"] + "// B\n"}, {Path: "notes.md", Head: head["notes.md"]}}
}

// A run for push A and a run for push B race on one pull request. Whatever
// the order, the run of the older head writes no review comment, edits
// none and resolves no thread once B exists, and still posts its check run
// on A.
func TestRaceOlderHeadWritesNoReview(t *testing.T) {
	ping := finding("lint", "ping", "db.go:4", agc.Blocking)
	closeF := finding("lint", "close", "db.go:5", agc.Blocking)
	for _, tc := range []struct {
		name string
		// race sets the pull request up and arranges when B is pushed.
		race func(t *testing.T, srv *ghtest.Server, c *ghapi.Client, head files)
	}{
		{"B is pushed while A's run reads the pull request", func(t *testing.T, srv *ghtest.Server, c *ghapi.Client, head files) {
			srv.PushAfter("pulls/list-files", 1, testRepo, 2, headSHA2, pushB(head))
		}},
		{"B is pushed between A's check run and its review", func(t *testing.T, srv *ghtest.Server, c *ghapi.Client, head files) {
			srv.PushAfter("checks/create", 1, testRepo, 2, headSHA2, pushB(head))
		}},
		{"B is pushed between A's last read and its review (GitHub answers 422)", func(t *testing.T, srv *ghtest.Server, c *ghapi.Client, head files) {
			srv.PushAfter("pulls/get", 2, testRepo, 2, headSHA2, pushB(head))
		}},
		{"B's run finished before A's", func(t *testing.T, srv *ghtest.Server, c *ghapi.Client, head files) {
			srv.SetHead(testRepo, 2, headSHA2, pushB(head))
			b := pushB(head)
			if _, _, err := deliverAt(t, c, headSHA2, response("lint", agc.Block, ping), files{"db.go": b[0].Head, "notes.md": b[1].Head}, nil); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := ghtest.New(t, ghtest.Options{})
			head := prFixture(t, srv)
			c := newClient(t, srv, ghtest.TokenActions, &fakeSleep{})
			tc.race(t, srv, c, head)
			before := snapshotPR(srv)
			rep, log, err := deliverAt(t, c, headSHA, response("lint", agc.Block, ping, closeF), head, nil)
			if err != nil {
				t.Fatalf("the older run failed: %v", err)
			}
			if rep.NewerHead != headSHA2 {
				t.Errorf("NewerHead %q, want %s", rep.NewerHead, headSHA2)
			}
			if after := snapshotPR(srv); after != before {
				t.Errorf("the older run changed the review:\nbefore %s\nafter  %s", before, after)
			}
			if !strings.Contains(log, "not "+headSHA) {
				t.Errorf("log does not say why no review was written:\n%s", log)
			}
			t.Logf("requests: %v", srv.Counts())
			if runs := checkRunsOn(srv, headSHA); runs != 1 {
				t.Errorf("%d check runs on the older head, want 1", runs)
			}
		})
	}
}

// A push that lands after the older run's review, before it resolves the
// threads of the findings it no longer has: the newer run owns them.
func TestRaceOlderHeadResolvesNoThread(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	head := prFixture(t, srv)
	c := newClient(t, srv, ghtest.TokenActions, &fakeSleep{})
	two := response("lint", agc.Block, finding("lint", "ping", "db.go:4", agc.Blocking), finding("lint", "close", "db.go:5", agc.Blocking))
	if _, _, err := deliverAt(t, c, headSHA, two, head, nil); err != nil {
		t.Fatal(err)
	}
	// A's rerun no longer has "close"; B is pushed as it posts its review.
	srv.PushAfter("pulls/create-review", 1, testRepo, 2, headSHA2, pushB(head))
	one := response("lint", agc.Block, finding("lint", "ping", "db.go:4", agc.Blocking), finding("lint", "new", "db.go:5-5", agc.Blocking))
	rep, log, err := deliverAt(t, c, headSHA, one, head, nil)
	if err != nil {
		t.Fatal(err)
	}
	resolved := 0
	srv.Snapshot(func(prs map[string]*ghtest.PullRequest, _ []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		for _, th := range prs[testRepo+"#2"].Threads {
			if th.Resolved {
				resolved++
			}
		}
	})
	if resolved != 0 || srv.Counts()["graphql/AgcResolveThreads"] != 0 {
		t.Errorf("the older run resolved %d threads after a newer head existed", resolved)
	}
	if rep.NewerHead != headSHA2 || !strings.Contains(log, "resolves and reopens no threads") {
		t.Errorf("NewerHead %q, log:\n%s", rep.NewerHead, log)
	}
}

// snapshotPR is the review side of pull request 2: comments with their
// bodies and reviews.
func snapshotPR(srv *ghtest.Server) string {
	var b strings.Builder
	srv.Snapshot(func(prs map[string]*ghtest.PullRequest, _ []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		pr := prs[testRepo+"#2"]
		for _, c := range pr.Comments {
			fmt.Fprintf(&b, "comment %d %s:%d %q; ", c.ID, c.Path, c.Line, c.Body)
		}
		for _, r := range pr.Reviews {
			fmt.Fprintf(&b, "review %d on %s; ", r.ID, r.CommitID)
		}
		for _, th := range pr.Threads {
			fmt.Fprintf(&b, "thread %s resolved=%v; ", th.ID, th.Resolved)
		}
	})
	return b.String()
}

func checkRunsOn(srv *ghtest.Server, sha string) int {
	n := 0
	srv.Snapshot(func(_ map[string]*ghtest.PullRequest, runs []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		for _, r := range runs {
			if r.HeadSHA == sha {
				n++
			}
		}
	})
	return n
}

// patchSource stands for the clone: the diff of each file as git would
// write it, computed from the emulator's own files.
type patchSource struct {
	srv   *ghtest.Server
	calls []string
}

func (p *patchSource) Diffs(ctx context.Context, base, head string, paths []string) (map[string]fingerprint.PathDiff, error) {
	if base != ghtest.DefaultBaseSHA || head != headSHA {
		return nil, fmt.Errorf("asked for %s...%s, want the pull request's base and head", base, head)
	}
	p.calls = append(p.calls, paths...)
	out := map[string]fingerprint.PathDiff{}
	p.srv.Snapshot(func(prs map[string]*ghtest.PullRequest, _ []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		pr := prs[testRepo+"#2"]
		for _, path := range paths {
			if status, patch, binary := pr.Change(path); status != "" {
				out[path] = fingerprint.PathDiff{Patch: patch, Status: status, Binary: binary}
			}
		}
	})
	return out, nil
}

// Files GitHub does not describe: a patch too large to send, a binary
// file, and files past the 3,000 GitHub lists. Placement reads their
// diff from the clone; a file with no hunks takes its file entry; every
// finding is delivered, and the log says why one is not inline.
func TestFilesGitHubDoesNotDescribe(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{MaxPatchBytes: 4000})
	var fs []ghtest.File
	head := files{}
	for i := range 3005 {
		p := fmt.Sprintf("pkg/f%04d.go", i)
		fs = append(fs, ghtest.File{Path: p, Base: "package pkg\n", Head: "package pkg\n\nvar x = 1\n"})
		head[p] = fs[i].Head
	}
	big := "package big\n" + lines("b", 400)
	fs = append(fs, ghtest.File{Path: "big.go", Base: "package big\n", Head: big}, ghtest.File{Path: "aa/logo.png", Base: "\x89PNG1", Head: "\x89PNG2", Binary: true})
	head["big.go"], head["aa/logo.png"] = big, "\x89PNG2"
	srv.SetHead(testRepo, 2, headSHA, fs)
	r := response("lint", agc.Block,
		finding("lint", "big", "big.go:200", agc.Blocking),        // patch too large: inline from the clone
		finding("lint", "past", "pkg/f3004.go:3", agc.Blocking),   // not listed: inline from the clone
		finding("lint", "logo", "aa/logo.png:1", agc.Advisory),    // binary: the file's entry
		finding("lint", "listed", "pkg/f0001.go:3", agc.Blocking), // listed with its patch
		finding("lint", "elsewhere", "main.go:3", agc.Blocking),   // not in the pull request: the body
	)
	for _, tc := range []struct {
		name string
		src  bool
		want map[string]string // channel by finding id
		why  []string
	}{
		{"with the clone", true, map[string]string{"lint/big": "inline", "lint/past": "inline", "lint/logo": "file", "lint/listed": "inline", "lint/elsewhere": "body"},
			[]string{"aa/logo.png: GitHub listed it without a patch (too large or binary), and the clone's diff has no hunks (git finds it binary): its findings go to the file's entry"}},
		{"without a clone", false, map[string]string{"lint/big": "file", "lint/past": "body", "lint/logo": "file", "lint/listed": "inline", "lint/elsewhere": "body"},
			[]string{"big.go: GitHub listed it without a patch (too large or binary), and there is no clone", "pkg/f3004.go: GitHub lists at most 3,000 files and did not list it"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv.SetHead(testRepo, 2, headSHA, fs) // each case starts from no review
			srv.Snapshot(func(prs map[string]*ghtest.PullRequest, _ []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
				pr := prs[testRepo+"#2"]
				pr.Comments, pr.Threads, pr.Reviews = nil, nil, nil
			})
			c := newClient(t, srv, ghtest.TokenActions, &fakeSleep{})
			var src Diffs
			ps := &patchSource{srv: srv}
			if tc.src {
				src = ps
			}
			rep, log, err := deliverAt(t, c, headSHA, r, head, src)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, p := range rep.Reviews["lint"].Placed {
				got[p.Finding.ID] = p.Channel.String()
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("channels (-want +got):\n%s\nlog:\n%s", diff, log)
			}
			if d := delivered(srv, 2); len(d) != len(r.Findings) {
				t.Errorf("%d of %d findings on the pull request: %v", len(d), len(r.Findings), d)
			}
			for _, why := range tc.why {
				if !strings.Contains(log, why) {
					t.Errorf("log lacks %q:\n%s", why, log)
				}
			}
			if tc.src && strings.Join(ps.calls, " ") != "aa/logo.png big.go main.go pkg/f3004.go" {
				t.Errorf("diffs read from the clone: %v, want only the files with findings GitHub did not describe", ps.calls)
			}
		})
	}
}

// A secondary rate limit on the 40th write: the run waits as GitHub says,
// within its total retry budget, and resumes without writing anything
// twice; when the budget runs out it sends nothing more and names what
// was not delivered, every check run among the delivered.
func TestRateLimitOnTheFortiethWrite(t *testing.T) {
	const gates = 15 // a check run and a status each (30 writes), then the reviews
	var docs []agc.Doc
	for i := range gates {
		id := fmt.Sprintf("g%02d", i)
		docs = append(docs, agc.Doc{Response: response(id, agc.Block, finding(id, "ping", "db.go:4", agc.Blocking), finding(id, "close", "db.go:5", agc.Blocking))})
	}
	for _, tc := range []struct {
		name         string
		faults       []ghtest.Fault
		wantWaits    time.Duration
		undelivered  int // reviews not delivered
		wantComments int
	}{
		{"the limit lifts", []ghtest.Fault{ghtest.SecondaryRateLimit(403, 60), ghtest.SecondaryRateLimit(429, 30)}, 90 * time.Second, 0, 2 * gates},
		{"the limit outlasts the budget", repeat(ghtest.SecondaryRateLimit(403, 100), 20), 300 * time.Second, 6, 2 * 9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := ghtest.New(t, ghtest.Options{})
			head := prFixture(t, srv)
			sl := &fakeSleep{}
			c := newClient(t, srv, ghtest.TokenActions, sl)
			srv.InjectWrite(40, tc.faults...)
			rep, err := Deliver(context.Background(), c, docs, Options{PR: 2, HeadSHA: headSHA, Review: true, Check: true, Status: true, Plan: review.PlanOptions{Head: head}})
			var waited time.Duration
			for _, w := range sl.Waits() {
				waited += w
			}
			if waited != tc.wantWaits || waited > ghapi.DefaultTotalWait {
				t.Errorf("waited %v in all (%v), want %v, within the budget of %v", waited, sl.Waits(), tc.wantWaits, ghapi.DefaultTotalWait)
			}
			if rep.Checks != gates || rep.Statuses != gates {
				t.Errorf("%d check runs and %d statuses delivered, want every one (%d)", rep.Checks, rep.Statuses, gates)
			}
			comments := 0
			srv.Snapshot(func(prs map[string]*ghtest.PullRequest, _ []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
				comments = len(prs[testRepo+"#2"].Comments)
			})
			if comments != tc.wantComments {
				t.Errorf("%d comments, want %d (none twice)", comments, tc.wantComments)
			}
			if tc.undelivered == 0 {
				if err != nil || len(rep.NotDelivered) > 0 {
					t.Fatalf("err %v, not delivered %v", err, rep.NotDelivered)
				}
				return
			}
			if !errors.Is(err, ghapi.ErrRetryBudget) || len(rep.NotDelivered) != tc.undelivered {
				t.Errorf("err %v; not delivered (%d): %v, want %d reviews", err, len(rep.NotDelivered), rep.NotDelivered, tc.undelivered)
			}
			// the 40th write is sent again after each of three waits, then
			// nothing: GitHub asks a rate-limited client to stop.
			if n := srv.Writes(); n != 43 {
				t.Errorf("%d writes sent, want 43", n)
			}
		})
	}
}

func repeat[T any](v T, n int) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// countingSource answers every path as changed by one added line.
type countingSource struct{ asked int }

func (c *countingSource) Diffs(ctx context.Context, base, head string, paths []string) (map[string]fingerprint.PathDiff, error) {
	c.asked += len(paths)
	out := map[string]fingerprint.PathDiff{}
	for _, p := range paths {
		out[p] = fingerprint.PathDiff{Status: "added", Patch: "@@ -0,0 +1 @@\n+x\n"}
	}
	return out, nil
}

// TestSourcedDiffsAreBounded: a judged party names as many files as it
// likes; the clone is asked for at most MaxSourcedDiffs of them, and the
// log says so.
func TestSourcedDiffsAreBounded(t *testing.T) {
	var fs []agc.Finding
	for i := range MaxSourcedDiffs + 500 {
		fs = append(fs, finding("flood", fmt.Sprintf("f%d", i), fmt.Sprintf("gen/f%05d.go:1", i), agc.Blocking))
	}
	st := &review.PRState{Number: 2, HeadSHA: headSHA, Diffs: map[string]*review.FileDiff{}, Truncated: true}
	src := &countingSource{}
	var log bytes.Buffer
	(&run{opt: Options{Diffs: src, Log: &log}}).fillDiffs(context.Background(), st, ghtest.DefaultBaseSHA, []agc.Doc{{Response: response("flood", agc.Block, fs...)}})
	if src.asked != MaxSourcedDiffs || len(st.Diffs) != MaxSourcedDiffs {
		t.Errorf("asked for %d diffs, %d filled; want %d", src.asked, len(st.Diffs), MaxSourcedDiffs)
	}
	if !strings.Contains(log.String(), fmt.Sprintf("findings name %d files GitHub gave no diff of", MaxSourcedDiffs+500)) {
		t.Errorf("log:\n%s", log.String())
	}
}
