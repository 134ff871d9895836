package ghapi

import (
	"context"
	"testing"

	"github.com/agcgate/agc-action/carry"
	"github.com/agcgate/agc-action/decide"
	"github.com/agcgate/agc-action/ghapi/ghtest"
)

// TestDecisionEndpoints: the permission a user has, the one reply to a
// comment (only the client's own login's reply counts), and the gate's
// runs with when they completed, each against the emulator.
func TestDecisionEndpoints(t *testing.T) {
	ctx := context.Background()
	srv := ghtest.New(t, ghtest.Options{})
	c := newClient(t, srv, ghtest.TokenActions, nil)
	writer := ghtest.Identity{Login: "octocat", ID: 583231, Type: "User"}
	srv.SetPermission(testRepo, writer, "write", "maintain")
	if p, role, err := c.Permission(ctx, "octocat"); err != nil || p != "write" || role != "maintain" {
		t.Fatalf("permission %q %q %v", p, role, err)
	}
	if p, _, err := c.Permission(ctx, "nobody"); err != nil || p != "none" {
		t.Fatalf("an unknown user: %q %v", p, err)
	}
	if _, _, err := c.Permission(ctx, "../x"); err == nil {
		t.Fatal("a login that is a path reaches GitHub")
	}

	if ok, err := c.RepliedTo(ctx, 2, 77); err != nil || ok {
		t.Fatalf("replied before replying: %v %v", ok, err)
	}
	other := newClient(t, srv, ghtest.TokenOther, nil)
	if err := other.Reply(ctx, 2, decide.Reply(77, "forged by another bot")); err != nil {
		t.Fatal(err)
	}
	if ok, _ := c.RepliedTo(ctx, 2, 77); ok {
		t.Fatal("another login's reply counts as ours")
	}
	if err := c.Reply(ctx, 2, decide.Reply(77, "a reader's comment")); err != nil {
		t.Fatal(err)
	}
	if ok, err := c.RepliedTo(ctx, 2, 77); err != nil || !ok {
		t.Fatalf("our reply is not found: %v %v", ok, err)
	}
	if ok, _ := c.RepliedTo(ctx, 2, 78); ok {
		t.Fatal("a reply to another comment counts")
	}

	if err := c.CarryRuns().Create(ctx, carry.NewCheckRun{Name: "agc/code-review", HeadSHA: headSHA, Conclusion: "success", Title: "t", Summary: "s"}); err != nil {
		t.Fatal(err)
	}
	runs, err := c.CarryRuns().List(ctx, headSHA, "agc/code-review")
	if err != nil || len(runs) != 1 || runs[0].Completed.IsZero() || runs[0].AppID != carry.ActionsAppID {
		t.Fatalf("gate runs %+v, %v", runs, err)
	}
}
