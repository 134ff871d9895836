package deliver

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/ghapi"
	"github.com/agcgate/agc-action/review"
	"github.com/google/go-github/v62/github"
)

// fakeGitHub is the ports in memory: a pull request whose files each
// add their first lines, the head GET /pulls names on each read, and what
// was written, in order.
type fakeGitHub struct {
	files []*github.CommitFile
	// heads are the heads Pull answers, one a read; the last repeats.
	heads []string
	pulls int
	// log is every write, in order: "check agc/G", "status agc/G",
	// "review N", "threads".
	log      []string
	comments []*github.DraftReviewComment
	bodies   []string
	checks   []github.CreateCheckRunOptions
}

func (f *fakeGitHub) Pull(_ context.Context, number int) (*ghapi.PullInfo, error) {
	h := f.heads[min(f.pulls, len(f.heads)-1)]
	f.pulls++
	return &ghapi.PullInfo{HeadSHA: h, BaseSHA: strings.Repeat("b", 40), ChangedFiles: len(f.files)}, nil
}
func (f *fakeGitHub) Files(context.Context, int) ([]*github.CommitFile, error) { return f.files, nil }
func (f *fakeGitHub) OwnComments(context.Context, int) ([]*github.PullRequestComment, error) {
	return nil, nil
}
func (f *fakeGitHub) OwnReviews(context.Context, int) ([]*github.PullRequestReview, error) {
	return nil, nil
}
func (f *fakeGitHub) Threads(context.Context, int) ([]ghapi.Thread, error) { return nil, nil }
func (f *fakeGitHub) Login() string                                        { return ghapi.DefaultLogin }
func (f *fakeGitHub) Sleep(context.Context, time.Duration) error           { return nil }
func (f *fakeGitHub) EditComment(context.Context, int64, string) error {
	f.log = append(f.log, "edit")
	return nil
}
func (f *fakeGitHub) EditReview(context.Context, int, int64, string) error {
	f.log = append(f.log, "edit")
	return nil
}
func (f *fakeGitHub) CreateReview(_ context.Context, _ int, commit, body string, comments []*github.DraftReviewComment) error {
	f.log = append(f.log, fmt.Sprintf("review %d", len(comments)))
	f.comments = append(f.comments, comments...)
	f.bodies = append(f.bodies, body)
	return nil
}
func (f *fakeGitHub) SetThreads(context.Context, []string, []string) error {
	f.log = append(f.log, "threads")
	return nil
}
func (f *fakeGitHub) CreateCheckRun(_ context.Context, opt github.CreateCheckRunOptions) (int64, error) {
	f.log = append(f.log, "check "+opt.Name)
	f.checks = append(f.checks, opt)
	return int64(len(f.checks)), nil
}
func (f *fakeGitHub) UpdateCheckRun(_ context.Context, _ int64, opt github.UpdateCheckRunOptions) error {
	f.log = append(f.log, "update "+opt.Name)
	return nil
}
func (f *fakeGitHub) CheckRuns(context.Context, string, string) ([]*github.CheckRun, error) {
	return nil, nil
}
func (f *fakeGitHub) CreateStatus(_ context.Context, _ string, st *github.RepoStatus) error {
	f.log = append(f.log, "status "+st.GetContext())
	return nil
}

// addedFiles are n files that each add ten lines.
func addedFiles(n int) []*github.CommitFile {
	fs := make([]*github.CommitFile, n)
	for i := range fs {
		fs[i] = &github.CommitFile{Filename: github.String(fmt.Sprintf("pkg/f%03d.go", i)), Status: github.String("added"),
			Patch: github.String("@@ -0,0 +1,10 @@\n" + strings.Repeat("+x\n", 10))}
	}
	return fs
}

// TestHeadMovedBetweenPlanAndPost: GitHub names the run's head when the
// run plans and a newer head when it is about to post the review (read
// twice). The run posts its check run on its own head, and no review:
// the newer head's run writes it. The report names the newer head.
func TestHeadMovedBetweenPlanAndPost(t *testing.T) {
	gh := &fakeGitHub{files: addedFiles(1), heads: []string{headSHA, headSHA2}}
	r := response("lint", agc.Block, finding("lint", "a", "pkg/f000.go:3", agc.Blocking))
	var log bytes.Buffer
	rep, err := Deliver(context.Background(), gh, []agc.Doc{{Response: r}}, Options{PR: 2, HeadSHA: headSHA, Review: true, Check: true, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"check agc/lint"}; fmt.Sprint(gh.log) != fmt.Sprint(want) {
		t.Errorf("writes %q, want %q: no review after the head moved", gh.log, want)
	}
	if rep.NewerHead != headSHA2 || len(rep.NotDelivered) != 0 {
		t.Errorf("newer head %q, not delivered %q; want %s and nothing missing (the newer run writes it)", rep.NewerHead, rep.NotDelivered, headSHA2)
	}
	if !strings.Contains(log.String(), "writes no review") {
		t.Errorf("the log does not say why no review was written:\n%s", log.String())
	}
}

// TestEveryFindingPostedOrCounted: three gates with more findings than
// one run may comment inline; each finding is an inline comment, listed
// in its review's body, or counted as left to its check run, and the
// counts add up to the findings.
func TestEveryFindingPostedOrCounted(t *testing.T) {
	gh := &fakeGitHub{files: addedFiles(60), heads: []string{headSHA}}
	var docs []agc.Doc
	for g := range 3 {
		gate := fmt.Sprintf("scan%d", g)
		var fs []agc.Finding
		for i := range 60 * 4 {
			line := i%12 + 1 // lines 11 and 12 are not in the diff
			fs = append(fs, finding(gate, fmt.Sprintf("f%d", i), fmt.Sprintf("pkg/f%03d.go:%d", i%60, line), agc.Blocking))
		}
		fs = append(fs, finding(gate, "nofile", "Bash.command", agc.Advisory))
		docs = append(docs, agc.Doc{Response: response(gate, agc.Block, fs...)})
	}
	rep, err := Deliver(context.Background(), gh, docs, Options{PR: 2, HeadSHA: headSHA, Review: true, Check: true})
	if err != nil {
		t.Fatal(err)
	}
	inline := map[string]bool{}
	for _, c := range gh.comments {
		for _, m := range review.ParseMarkers(c.GetBody()) {
			if m.Kind == review.MarkFinding {
				inline[m.Attrs["id"]] = true
			}
		}
	}
	body := strings.Join(gh.bodies, "\n")
	posted := 0
	for _, d := range docs {
		res := rep.Reviews[d.Response.Gate.ID]
		if res == nil {
			t.Fatalf("%s: no review result", d.Response.Gate.ID)
		}
		if got := res.Inline + res.Listed + res.Unlisted; got != len(d.Response.Findings) {
			t.Errorf("%s: %d inline + %d listed + %d unlisted, want %d findings", d.Response.Gate.ID, res.Inline, res.Listed, res.Unlisted, len(d.Response.Findings))
		}
		for _, p := range res.Placed {
			if p.Channel == review.ChannelInline && !inline[p.Finding.ID] {
				t.Errorf("%s placed inline, and no comment holds it", p.Finding.ID)
			}
			if p.Channel == review.ChannelInline {
				posted++
			}
		}
		if res.Listed > 0 && !strings.Contains(body, d.Response.Gate.ID) {
			t.Errorf("%s lists %d findings in a review body that is not posted", d.Response.Gate.ID, res.Listed)
		}
	}
	if posted != len(gh.comments) || posted == 0 || posted > review.MaxInlinePerRun {
		t.Errorf("%d placed inline, %d comments posted (at most %d a run)", posted, len(gh.comments), review.MaxInlinePerRun)
	}
	if len(gh.checks) != len(docs) {
		t.Errorf("%d check runs, want %d", len(gh.checks), len(docs))
	}
}
