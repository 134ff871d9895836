package deliver

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/ghapi"
	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/review"
	"github.com/google/go-cmp/cmp"
)

// prFixture: db.go gains lines 4-5 and keeps the rest; old.go is untouched
// context far from the change; notes.md is added.
func prFixture(t *testing.T, srv *ghtest.Server) files {
	base := "package db\n\nfunc Open() {\n" + lines("a", 20) + "}\n"
	head := "package db\n\nfunc Open() {\n\tdb.Ping()\n\tdb.Close()\n" + lines("a", 20) + "}\n"
	head2 := "# Notes\n\nSee `db.go`.\n"
	srv.SetHead(testRepo, 2, headSHA, []ghtest.File{{Path: "db.go", Base: base, Head: head}, {Path: "notes.md", Head: head2}})
	return files{"db.go": head, "notes.md": head2}
}

func TestReviewPlacesEveryFindingOnce(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	head := prFixture(t, srv)
	r := response("lint", agc.Block,
		patchFinding("lint", "ping", "db.go", "\tdb.Ping()\n", "\tif err := db.Ping(); err != nil {\n\t\treturn err\n\t}\n"), // inline suggestion
		patchFinding("lint", "far", "db.go", "\ta_15 := compute(15)\n", ""),                                                  // in PR file, outside the diff: file comment with a diff block
		finding("lint", "ctx", "db.go:6", agc.Advisory),                                                                      // a context line: added mode -> file comment
		finding("lint", "notes", "notes.md#L1-L3", agc.Advisory),                                                             // inline range on an added file
		finding("lint", "other", "main.go:3", agc.Blocking),                                                                  // not in the PR: body
		finding("lint", "cmd", "Bash.command", agc.Blocking),                                                                 // no file: body
	)
	c := newClient(t, srv, ghtest.TokenActions, &fakeSleep{})
	res := reviewPR(t, c, r, head)
	got := map[string]string{}
	for _, p := range res.Placed {
		got[p.Finding.ID] = p.Channel.String()
	}
	want := map[string]string{"lint/ping": "inline", "lint/far": "file", "lint/ctx": "file", "lint/notes": "inline", "lint/other": "body", "lint/cmd": "body"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("channels (-want +got):\n%s", diff)
	}
	if len(res.Placed) != len(r.Findings) {
		t.Errorf("%d placed for %d findings", len(res.Placed), len(r.Findings))
	}
	// Read back from GitHub's side: each finding is in exactly one place,
	// inline or in the one review's body (file-level findings too, under
	// their file's heading).
	wantDelivered := map[string][]string{}
	for id, ch := range want {
		if ch == "file" {
			ch = "body"
		}
		wantDelivered[id] = []string{ch}
	}
	if diff := cmp.Diff(wantDelivered, delivered(srv, 2)); diff != "" {
		t.Errorf("delivered (-want +got):\n%s", diff)
	}
	if res.Reviews != 1 || res.Posted != 2 || res.Inline != 2 || res.Listed != 4 {
		t.Errorf("reviews %d posted %d inline %d listed %d, want 1 review, 2 inline comments and 4 findings listed in its body",
			res.Reviews, res.Posted, res.Inline, res.Listed)
	}
	srv.Snapshot(func(prs map[string]*ghtest.PullRequest, _ []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		pr := prs[testRepo+"#2"]
		bodies := map[string]*ghtest.Comment{}
		for _, cm := range pr.Comments {
			bodies[cm.Path+":"+cm.SubjectType] = cm
		}
		ping := bodies["db.go:line"]
		if ping == nil || ping.Line != 4 || !strings.Contains(ping.Body, "```suggestion\n\tif err := db.Ping(); err != nil {\n\t\treturn err\n\t}\n```") {
			t.Errorf("inline suggestion comment wrong: %+v", ping)
		}
		notes := bodies["notes.md:line"]
		if notes == nil || notes.StartLine != 1 || notes.Line != 3 {
			t.Errorf("multi-line comment wrong: %+v", notes)
		}
		if file := bodies["db.go:file"]; file != nil {
			t.Errorf("a stand-alone file-level comment was posted (a notification of its own): %+v", file)
		}
		if len(pr.Reviews) != 1 {
			t.Fatalf("%d reviews, want 1", len(pr.Reviews))
		}
		body := pr.Reviews[0].Body
		for _, want := range []string{"#### `db.go`", "| ⛔ blocking | 20 | `c-far` | What is wrong with far. |", "#### Outside this pull request's files", "`main.go:3`", "Bash.command"} {
			if !strings.Contains(body, want) {
				t.Errorf("review body lacks %q:\n%s", want, body)
			}
		}
		if strings.Index(body, "#### `db.go`") > strings.Index(body, "#### Outside") {
			t.Errorf("the findings in the pull request's files come first:\n%s", body)
		}
	})
}

func TestFilterModes(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	head := prFixture(t, srv)
	c := newClient(t, srv, ghtest.TokenActions, &fakeSleep{})
	st, err := LoadPR(context.Background(), c, 2, headSHA)
	if err != nil {
		t.Fatal(err)
	}
	r := response("lint", agc.Block,
		finding("lint", "added", "db.go:4", agc.Blocking),
		finding("lint", "ctx", "db.go:7", agc.Blocking),
		finding("lint", "far", "db.go:20", agc.Blocking),
		finding("lint", "out", "main.go:1", agc.Blocking))
	tests := []struct {
		mode review.FilterMode
		want []review.Channel
	}{
		{review.FilterAdded, []review.Channel{review.ChannelInline, review.ChannelFile, review.ChannelFile, review.ChannelBody}},
		{review.FilterDiffContext, []review.Channel{review.ChannelInline, review.ChannelInline, review.ChannelFile, review.ChannelBody}},
		{review.FilterFile, []review.Channel{review.ChannelInline, review.ChannelInline, review.ChannelFile, review.ChannelCheck}},
		{review.FilterNoFilter, []review.Channel{review.ChannelInline, review.ChannelInline, review.ChannelFile, review.ChannelBody}},
	}
	for _, tc := range tests {
		var got []review.Channel
		for _, p := range review.Place(r, st.Diffs, head, tc.mode) {
			got = append(got, p.Channel)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("mode %s (-want +got):\n%s", tc.mode, diff)
		}
	}
}

// Comments by another identity with our markers do not count as ours.
func TestOnlyOwnCommentsCount(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	head := prFixture(t, srv)
	r := response("lint", agc.Block, finding("lint", "added", "db.go:4", agc.Blocking))
	ctx := context.Background()
	other, err := ghapi.New(ghapi.Config{Owner: testOwner, Repo: testName, Token: ghtest.TokenOther, Login: "other-linter[bot]", BaseURL: srv.URL(), GraphQLURL: srv.GraphQLURL()})
	if err != nil {
		t.Fatal(err)
	}
	st, err := LoadPR(ctx, other, 2, headSHA)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reviewOne(ctx, other, st, r, review.PlanOptions{Head: head}); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, srv, ghtest.TokenActions, &fakeSleep{})
	st, err = LoadPR(ctx, c, 2, headSHA)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Comments) != 0 {
		t.Fatalf("the other bot's comments were taken as ours: %d", len(st.Comments))
	}
	res, err := reviewOne(ctx, c, st, r, review.PlanOptions{Head: head})
	if err != nil {
		t.Fatal(err)
	}
	if res.Posted != 1 {
		t.Errorf("posted %d, want our own 1", res.Posted)
	}
}

// More inline findings than a gate may have: the first MaxComments are
// inline, in one review, the others listed in its body under their file.
func TestReviewCapsInlineComments(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	base := ""
	head := lines("x", 30)
	srv.SetHead(testRepo, 2, headSHA, []ghtest.File{{Path: "big.go", Base: base, Head: head}})
	var fs []agc.Finding
	for i := 1; i <= 25; i++ {
		fs = append(fs, finding("lint", strings.Repeat("n", i), "big.go:"+strconv.Itoa(i), agc.Blocking))
	}
	c := newClient(t, srv, ghtest.TokenActions, &fakeSleep{})
	st, err := LoadPR(context.Background(), c, 2, headSHA)
	if err != nil {
		t.Fatal(err)
	}
	res, err := reviewOne(context.Background(), c, st, response("lint", agc.Block, fs...), review.PlanOptions{MaxInline: 10})
	if err != nil {
		t.Fatal(err)
	}
	if res.Reviews != 1 || res.Posted != 10 || res.Capped != 15 || res.Listed != 15 {
		t.Errorf("reviews %d posted %d capped %d listed %d, want 1, 10, 15 and 15", res.Reviews, res.Posted, res.Capped, res.Listed)
	}
	got := delivered(srv, 2)
	for i := 1; i <= 25; i++ {
		want := "inline"
		if i > 10 {
			want = "body"
		}
		if id := "lint/" + strings.Repeat("n", i); len(got[id]) != 1 || got[id][0] != want {
			t.Errorf("%s delivered %v, want %s", id, got[id], want)
		}
	}
}

// A comment posted twice for one finding (a write retried after a 5xx
// that GitHub had applied) is found on the next run and its thread
// resolved; the first one is kept.
func TestDuplicateCommentsAreResolved(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	head := prFixture(t, srv)
	c := newClient(t, srv, ghtest.TokenActions, &fakeSleep{})
	ctx := context.Background()
	r := response("lint", agc.Block, finding("lint", "a", "db.go:4", agc.Blocking))
	stale, err := LoadPR(ctx, c, 2, headSHA)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ { // the same stale state twice: two comments
		if _, err := reviewOne(ctx, c, stale, r, review.PlanOptions{Head: head}); err != nil {
			t.Fatal(err)
		}
	}
	res := reviewPR(t, c, r, head)
	if res.Posted != 0 || res.Resolved != 1 || res.Unchanged != 1 {
		t.Errorf("%+v, want the duplicate resolved and the first kept", res)
	}
}
