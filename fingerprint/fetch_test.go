package fingerprint

import (
	"context"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/fingerprint/gittest"
)

// TestFetchCommit: a shallow clone lacks an earlier head; HasCommit says
// so, FetchCommit fetches it by its id (file:// speaks the protocol
// GitHub does), and the same Git then reads its tree.
func TestFetchCommit(t *testing.T) {
	ctx := context.Background()
	origin := gittest.New(t)
	origin.Write("src/a.go", "package a\n")
	old := origin.Commit("old head")
	origin.Write("src/a.go", "package a // new\n")
	origin.Commit("new head")
	clone := t.TempDir()
	gittest.Run(t, origin.Dir, "clone", "-q", "--depth=1", "file://"+origin.Dir, clone)
	g := &Git{Dir: clone}
	defer g.Close()
	if _, err := g.Commit(ctx, "HEAD"); err != nil {
		t.Fatal(err)
	}
	if g.HasCommit(ctx, old) {
		t.Fatalf("the shallow clone holds %s", old)
	}
	if err := g.FetchCommit(ctx, "origin", old); err != nil {
		t.Fatal(err)
	}
	if !g.HasCommit(ctx, old) {
		t.Fatalf("fetched, the clone still lacks %s", old)
	}
	if data, err := g.File(ctx, old, "src/a.go"); err != nil || string(data) != "package a\n" {
		t.Errorf("src/a.go at the fetched commit: %q, %v", data, err)
	}
	if shallow := gittest.Run(t, clone, "rev-parse", "--is-shallow-repository"); shallow != "true" {
		t.Errorf("is-shallow-repository = %s", shallow)
	}
	if refs := gittest.Run(t, clone, "for-each-ref", "--format=%(objectname)"); strings.Contains(refs, old) {
		t.Errorf("fetching by id updated a ref: %s", refs)
	}
}

func TestFetchCommitRefusesOddArguments(t *testing.T) {
	g := &Git{Dir: t.TempDir()}
	id := strings.Repeat("a", 40)
	for _, tc := range [][2]string{{"origin", "HEAD"}, {"origin", "--upload-pack=x"}, {"origin", strings.Repeat("A", 40)},
		{"--upload-pack=touch /tmp/x", id}, {"file:///tmp/x", id}, {"", id}, {"a b", id}} {
		if err := g.FetchCommit(context.Background(), tc[0], tc[1]); err == nil {
			t.Errorf("FetchCommit(%q, %q): nil error", tc[0], tc[1])
		}
	}
	if g.HasCommit(context.Background(), "HEAD") {
		t.Error("HasCommit takes only full ids")
	}
}
