package peertest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/deliver"
	"github.com/agcgate/agc-action/ghapi"
	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/internal/testkit"
	"github.com/agcgate/agc-action/review"
	"github.com/agcgate/agc-action/sarif"
)

// eventFixture is a real pull_request webhook payload (Codertocat/Hello-World
// #2); reviewdog reads it as GITHUB_EVENT_PATH, the emulator its PR.
const eventFixture = "../../fixtures/webhooks/pull_request.opened.json"

const headSHA2 = "6113728f27ae82c7b1a177c8d03f9e96e0adf246"

// reviewdogBin is tools/bin/reviewdog, checked to be v0.21.0 (its -version
// prints "master" when built by go install, so the module version is read
// from the binary's build information).
func reviewdogBin(t *testing.T) string {
	t.Helper()
	bin := testkit.File(t, "reviewdog", "bin", "reviewdog")
	checked.Do(func() {
		out, err := exec.Command("go", "version", "-m", bin).Output()
		switch {
		case err != nil:
			checkErr = fmt.Errorf("go version -m %s: %v", bin, err)
		case !bytes.Contains(out, []byte("github.com/reviewdog/reviewdog\tv0.21.0")):
			checkErr = fmt.Errorf("%s is not reviewdog v0.21.0: run `make setup`\n%s", bin, out)
		}
	})
	if checkErr != nil {
		t.Fatal(checkErr)
	}
	return bin
}

var (
	checked  sync.Once
	checkErr error
)

// pr is one side's pull request: an emulator holding Codertocat/Hello-World
// #2 and a checkout of its head (a git work tree, as reviewdog needs one).
type pr struct {
	t     *testing.T
	srv   *ghtest.Server
	front *ghtest.PeerFront
	ev    ghtest.Event
	head  string // head commit sha
	dir   string // checkout at head
}

func newPR(t *testing.T, files []ghtest.File) *pr {
	t.Helper()
	srv := ghtest.New(t, ghtest.Options{})
	ev, err := srv.SetHeadFromEvent(eventFixture, files)
	if err != nil {
		t.Fatal(err)
	}
	p := &pr{t: t, srv: srv, front: srv.NewPeerFront(t), ev: ev, head: ev.HeadSHA, dir: t.TempDir()}
	git(t, p.dir, "init", "-q")
	p.checkout(files)
	return p
}

// push makes sha the head with these files, on GitHub and in the checkout.
func (p *pr) push(sha string, files []ghtest.File) {
	p.srv.SetHead(p.ev.Repo, p.ev.Number, sha, files)
	p.head = sha
	p.checkout(files)
}

func (p *pr) checkout(files []ghtest.File) {
	for _, f := range files {
		path := filepath.Join(p.dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			p.t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(f.Head), 0o644); err != nil {
			p.t.Fatal(err)
		}
	}
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// event writes the fixture payload with the current head sha.
func (p *pr) event() string {
	raw, err := os.ReadFile(eventFixture)
	if err != nil {
		p.t.Fatal(err)
	}
	var ev map[string]any
	if err := json.Unmarshal(raw, &ev); err != nil {
		p.t.Fatal(err)
	}
	ev["pull_request"].(map[string]any)["head"].(map[string]any)["sha"] = p.head
	out, err := json.Marshal(ev)
	if err != nil {
		p.t.Fatal(err)
	}
	path := filepath.Join(p.t.TempDir(), "event.json")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		p.t.Fatal(err)
	}
	return path
}

// rdRun is what one reviewdog run did.
type rdRun struct {
	code           int
	stdout, stderr string
}

func (r rdRun) String() string {
	return fmt.Sprintf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
}

// reviewdog runs the real binary on log as in a GitHub Actions job on the
// pull request, talking to the emulator only.
func (p *pr) reviewdog(log []byte, args ...string) rdRun {
	p.t.Helper()
	bin := reviewdogBin(p.t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{"-f=sarif", "-reporter=github-pr-review"}, args...)...)
	cmd.Dir = p.dir
	cmd.Stdin = bytes.NewReader(log)
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + p.t.TempDir(),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=pull_request", "GITHUB_EVENT_PATH=" + p.event(),
		"GITHUB_REPOSITORY=" + p.ev.Repo, "GITHUB_SHA=" + p.head,
		"GITHUB_API=" + p.front.URL(), "REVIEWDOG_GITHUB_API_TOKEN=" + ghtest.TokenActions,
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	run := rdRun{stdout: out.String(), stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		run.code = ee.ExitCode()
	case err != nil:
		p.t.Fatalf("run reviewdog: %v", err)
	}
	p.t.Logf("reviewdog %v: exit %d; stderr %q; requests: %q", args, run.code, firstLines(run.stderr, 3), p.srv.Log())
	return run
}

// dirReader reads the checkout at head for ghapi.
type dirReader string

func (d dirReader) ReadFile(path string) ([]byte, error) {
	return os.ReadFile(filepath.Join(string(d), filepath.FromSlash(path)))
}

// ours delivers log as `agc-sarif github --review` does: read the SARIF
// against the checkout, convert it to AGC responses, post one review per
// gate. It returns the report and ghapi's retry waits.
func (p *pr) ours(log []byte) (*deliver.Report, []time.Duration, error) {
	p.t.Helper()
	got, err := sarif.Read(log, "peer.sarif", sarif.Options{Root: filepath.ToSlash(p.dir), FS: os.DirFS(p.dir)})
	if err != nil {
		p.t.Fatal(err)
	}
	var gates []agc.Doc
	for _, r := range got.Responses {
		gates = append(gates, agc.Doc{Response: r})
	}
	sl := &ghtest.Sleeps{}
	owner, name, _ := strings.Cut(p.ev.Repo, "/")
	c, err := ghapi.New(ghapi.Config{Owner: owner, Repo: name, Token: ghtest.TokenActions,
		BaseURL: p.srv.URL(), GraphQLURL: p.srv.GraphQLURL(), Retry: ghapi.RetryPolicy{Sleep: sl.Sleep}})
	if err != nil {
		p.t.Fatal(err)
	}
	rep, err := deliver.Deliver(context.Background(), c, gates, deliver.Options{PR: p.ev.Number, HeadSHA: p.head,
		Review: true, Plan: review.PlanOptions{Head: dirReader(p.dir)}})
	p.t.Logf("ours: requests: %q", p.srv.Log())
	return rep, sl.Waits(), err
}

// state is a copy of the pull request as the emulator holds it.
type state struct {
	comments []ghtest.Comment
	reviews  []ghtest.Review
	threads  []ghtest.Thread
}

func (p *pr) state() state {
	var st state
	p.srv.Snapshot(func(prs map[string]*ghtest.PullRequest, _ []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		x := prs[fmt.Sprintf("%s#%d", p.ev.Repo, p.ev.Number)]
		for _, c := range x.Comments {
			st.comments = append(st.comments, *c)
		}
		for _, r := range x.Reviews {
			st.reviews = append(st.reviews, *r)
		}
		for _, th := range x.Threads {
			st.threads = append(st.threads, *th)
		}
	})
	return st
}

// lineComments are the comments on lines of path.
func (st state) lineComments(path string) []ghtest.Comment {
	var out []ghtest.Comment
	for _, c := range st.comments {
		if c.SubjectType == "line" && c.Path == path {
			out = append(out, c)
		}
	}
	return out
}

// mentions counts the comments and review bodies that contain text.
func (st state) mentions(text string) int {
	n := 0
	for _, c := range st.comments {
		if strings.Contains(c.Body, text) {
			n++
		}
	}
	for _, r := range st.reviews {
		if strings.Contains(r.Body, text) {
			n++
		}
	}
	return n
}

// firstLines is the first n lines of s, for logs.
func firstLines(s string, n int) string {
	ls := strings.SplitAfterN(s, "\n", n+1)
	return strings.Join(ls[:min(n, len(ls))], "")
}
