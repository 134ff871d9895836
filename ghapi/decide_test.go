package ghapi

import (
	"context"
	"testing"

	"github.com/agcgate/agc-action/ghapi/ghtest"
)

// TestDecisionEndpoints: the permission a user has, and the replies on a
// pull request's conversation with who wrote them, against the emulator.
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
	other := newClient(t, srv, ghtest.TokenOther, nil)
	if err := other.Reply(ctx, 2, "another bot's reply"); err != nil {
		t.Fatal(err)
	}
	if err := c.Reply(ctx, 2, "our reply"); err != nil {
		t.Fatal(err)
	}
	cms, err := c.IssueComments(ctx, 2)
	if err != nil || len(cms) != 2 || cms[1].GetBody() != "our reply" || cms[1].GetUser().GetLogin() != c.Login() || cms[0].GetUser().GetLogin() == c.Login() {
		t.Fatalf("comments %v, %v", cms, err)
	}
}
