package deliver

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/review"
	"github.com/google/go-cmp/cmp"
)

// A check run is one request whatever the number of findings: the first
// 50 with a line are annotations, and its summary says so and where the
// rest are.
func TestCheckRunAnnotationsWithinCeilingAndReadBack(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	var fs []agc.Finding
	for i := 1; i <= 120; i++ {
		fs = append(fs, finding("lint", strings.Repeat("x", i%7+1)+string(rune('a'+i%26))+itoaT(i), "src/a.go:"+itoaT(i), agc.Blocking))
	}
	fs = append(fs, finding("lint", "noline", "Bash.command", agc.Advisory))
	r := response("lint", agc.Block, fs...)
	raw, err := agc.Encode(r)
	if err != nil {
		t.Fatal(err)
	}
	raw = append([]byte("  "), raw...) // exact bytes, not re-encoded, come back
	c := newClient(t, srv, ghtest.TokenActions, &fakeSleep{})
	if _, err := Deliver(context.Background(), c, []agc.Doc{{Response: r, Raw: raw}}, Options{HeadSHA: headSHA, Check: true}); err != nil {
		t.Fatal(err)
	}
	counts := srv.Counts()
	if counts["checks/create"] != 1 || counts["checks/update"] != 0 {
		t.Errorf("requests %v, want 1 create and no update for 120 annotations", counts)
	}
	srv.Snapshot(func(_ map[string]*ghtest.PullRequest, runs []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		cr := runs[0]
		if cr.Name != "agc/lint" || cr.Conclusion != "failure" || len(cr.Annotations) != review.MaxAnnotationsPerGate || cr.App.AppSlug != "github-actions" {
			t.Errorf("check run %s %s with %d annotations by %s", cr.Name, cr.Conclusion, len(cr.Annotations), cr.App.AppSlug)
		}
		if !strings.Contains(cr.Summary, "The first 50 of the 120 findings with a line are annotations") {
			t.Errorf("the summary does not say which findings are annotations:\n%.600s", cr.Summary)
		}
	})
	runs, err := c.CheckRuns(context.Background(), headSHA, "agc/lint")
	if err != nil || len(runs) != 1 {
		t.Fatalf("%d runs, %v", len(runs), err)
	}
	run := runs[0]
	got, err := review.ReadBackRaw(run)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, raw) {
		t.Error("read back bytes differ from the ones posted")
	}
	back, err := agc.Decode("check run", got, agc.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(r, back); diff != "" {
		t.Errorf("read back (-posted +got):\n%s", diff)
	}
}

func itoaT(i int) string { return strconv.Itoa(i) }

func TestCheckRunWithoutFindingsAndStatus(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	c := newClient(t, srv, ghtest.TokenActions, &fakeSleep{})
	ctx := context.Background()
	allow := response("secrets", agc.Allow)
	if _, err := Deliver(ctx, c, []agc.Doc{{Response: allow}}, Options{HeadSHA: headSHA, Check: true}); err != nil {
		t.Fatal(err)
	}
	esc := response("review", agc.Escalate, finding("review", "x", "a.go", agc.Blocking))
	esc.Findings[0].What = strings.Repeat("ü", 150) // description over 140 characters
	if _, err := Deliver(ctx, c, []agc.Doc{{Response: esc}}, Options{HeadSHA: headSHA, Check: true, DetailsURL: "https://github.com/o/r/actions/runs/1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := Deliver(ctx, c, []agc.Doc{{Response: esc}}, Options{HeadSHA: headSHA, Status: true}); err != nil {
		t.Fatal(err)
	}
	srv.Snapshot(func(_ map[string]*ghtest.PullRequest, runs []*ghtest.CheckRun, sts []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		if runs[0].Conclusion != "success" || runs[1].Conclusion != "action_required" {
			t.Errorf("conclusions %s, %s", runs[0].Conclusion, runs[1].Conclusion)
		}
		if len(sts) != 1 || sts[0].State != "failure" || utf8.RuneCountInString(sts[0].Description) != 140 || !utf8.ValidString(sts[0].Description) {
			t.Errorf("status %+v", sts)
		}
	})
}
