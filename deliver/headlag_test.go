package deliver

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/review"
)

// TestLaggingPullReadIsReadAgain: GET /pulls/{n} still names the previous
// head when the run for the new head reads it (GitHub's read lags the
// push). The run waits once, reads again, finds its own head and writes
// its review; the log does not call the lagging head newer.
func TestLaggingPullReadIsReadAgain(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	head := prFixture(t, srv)
	b := pushB(head)
	// The pull request is at headSHA2; GitHub's first answer still names headSHA.
	srv.SetHead(testRepo, 2, headSHA, []ghtest.File{{Path: "db.go", Base: b[0].Base, Head: head["db.go"]}, {Path: "notes.md", Head: head["notes.md"]}})
	srv.PushAfter("pulls/get", 1, testRepo, 2, headSHA2, b)
	sl := &fakeSleep{}
	c := newClient(t, srv, ghtest.TokenActions, sl)
	var log bytes.Buffer
	rep, err := Deliver(context.Background(), c, []agc.Doc{{Response: response("lint", agc.Block, finding("lint", "ping", "db.go:4", agc.Blocking))}},
		Options{PR: 2, HeadSHA: headSHA2, Review: true, Check: true, Plan: review.PlanOptions{Head: files{"db.go": b[0].Head, "notes.md": b[1].Head}}, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if rep.NewerHead != "" || rep.Reviews["lint"] == nil || rep.Reviews["lint"].Posted != 1 {
		t.Errorf("NewerHead %q, review %+v; want the review written on %s\nlog:\n%s", rep.NewerHead, rep.Reviews["lint"], headSHA2, log.String())
	}
	if len(sl.Waits()) != 1 {
		t.Errorf("waits %v, want one before the second read", sl.Waits())
	}
}

// TestOtherHeadIsNotCalledNewer: GitHub keeps naming another head after
// the second read; the log says which head GitHub names, not that it is
// newer, since the run cannot tell.
func TestOtherHeadIsNotCalledNewer(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	head := prFixture(t, srv)
	c := newClient(t, srv, ghtest.TokenActions, &fakeSleep{})
	rep, log, err := deliverAt(t, c, headSHA2, response("lint", agc.Block, finding("lint", "ping", "db.go:4", agc.Blocking)), head, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.NewerHead != headSHA || !strings.Contains(log, "GitHub names head "+headSHA+", not "+headSHA2) || strings.Contains(log, "newer") {
		t.Errorf("NewerHead %q, log:\n%s", rep.NewerHead, log)
	}
}
