package ghapi

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-github/v62/github"
)

func TestConclusions(t *testing.T) {
	for verdict, want := range map[string]string{agc.Allow: "success", agc.Repaired: "success", agc.Block: "failure", agc.Escalate: "action_required"} {
		if got := Conclusion(verdict); got != want {
			t.Errorf("Conclusion(%s) = %s, want %s", verdict, got, want)
		}
	}
}

func TestCheckRunAnnotationsInBatchesAndReadBack(t *testing.T) {
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
	run, err := c.CheckRun(context.Background(), CheckInput{HeadSHA: headSHA, Response: r, Raw: raw})
	if err != nil {
		t.Fatal(err)
	}
	counts := srv.Counts()
	if counts["checks/create"] != 1 || counts["checks/update"] != 2 {
		t.Errorf("requests %v, want 1 create and 2 updates for 120 annotations", counts)
	}
	srv.Snapshot(func(_ map[string]*ghtest.PullRequest, runs []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		cr := runs[0]
		if cr.Name != "agc/lint" || cr.Conclusion != "failure" || len(cr.Annotations) != 120 || cr.App.AppSlug != "github-actions" {
			t.Errorf("check run %s %s with %d annotations by %s", cr.Name, cr.Conclusion, len(cr.Annotations), cr.App.AppSlug)
		}
	})
	got, err := ReadBackRaw(run)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, raw) {
		t.Error("read back bytes differ from the ones posted")
	}
	back, err := ReadBackResponse(run)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(r, back); diff != "" {
		t.Errorf("read back (-posted +got):\n%s", diff)
	}
}

func itoaT(i int) string { return strconv.Itoa(i) }

func TestReadBackRejectsTampering(t *testing.T) {
	raw := []byte(`{"agc":"0.1"}`)
	text := EmbedResponse(raw)
	run := &github.CheckRun{ID: github.Int64(1), Output: &github.CheckRunOutput{Text: github.String(strings.Replace(text, "sha256=", "sha256=0", 1))}}
	if _, err := ReadBackRaw(run); err == nil || !strings.Contains(err.Error(), "sha256") {
		t.Errorf("tampered checksum: err = %v", err)
	}
	run.Output.Text = github.String("no response here")
	if _, err := ReadBackRaw(run); err != ErrNotEmbedded {
		t.Errorf("err = %v, want ErrNotEmbedded", err)
	}
}

func TestSummaryCutCleanly(t *testing.T) {
	var fs []agc.Finding
	for i := 0; i < 400; i++ {
		f := finding("big", "f"+itoaT(i+1), "a.go:1", agc.Blocking)
		f.What = strings.Repeat("ünïcödé ", 30)
		fs = append(fs, f)
	}
	s, err := checkSummary(response("big", agc.Block, fs...))
	if err != nil {
		t.Fatal(err)
	}
	if n := utf8.RuneCountInString(s); n > MaxCheckText {
		t.Fatalf("summary has %d characters", n)
	}
	if !strings.Contains(s, "more sections are in the response embedded") {
		t.Error("cut summary does not say so")
	}
	if i := strings.LastIndex(s, "\n#### "); i < 0 || !strings.Contains(s[i:], "**Check:**") && !strings.Contains(s[i:], "Check") {
		t.Error("the last finding kept is not whole")
	}
}

func TestCheckRunWithoutFindingsAndStatus(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	c := newClient(t, srv, ghtest.TokenActions, &fakeSleep{})
	ctx := context.Background()
	allow := response("secrets", agc.Allow)
	if _, err := c.CheckRun(ctx, CheckInput{HeadSHA: headSHA, Response: allow}); err != nil {
		t.Fatal(err)
	}
	esc := response("review", agc.Escalate, finding("review", "x", "a.go", agc.Blocking))
	esc.Findings[0].What = strings.Repeat("ü", 150) // description over 140 characters
	if _, err := c.CheckRun(ctx, CheckInput{HeadSHA: headSHA, Response: esc, DetailsURL: "https://github.com/o/r/actions/runs/1"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Status(ctx, headSHA, esc, ""); err != nil {
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
