// Package prfixture is the pull request the end-to-end tests of the
// agc-sarif commands (internal/cli) and of the Action (internal/action)
// deliver to: Codertocat/Hello-World #2 of GitHub's real synchronize
// payload, held by the ghtest emulator, with a checkout of its head.
//
// Its paths are relative to a package directory two levels below the
// module root (internal/NAME), where those tests run. It writes only the
// temporary checkout; only tests import it.
package prfixture

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/fingerprint/gittest"
	"github.com/agcgate/agc-action/ghapi/ghtest"
)

const (
	Repo    = "Codertocat/Hello-World"
	HeadSHA = "ec26c3e57ca3a959ca5aad62de7213c562f8c821" // in the synchronize fixture
	Event   = "../../fixtures/webhooks/pull_request.synchronize.json"
	Patch   = "../../fixtures/agc/valid/block-patch.json" // go-lint's block with a patch on src/store/db.go
)

// DBBase and DBHead are src/store/db.go at the base and at the head.
const (
	DBBase = "package store\n\nfunc Open() (*DB, error) {\n\tdb := connect()\n\treturn db, nil\n}\n"
	DBHead = "package store\n\nfunc Open() (*DB, error) {\n\tdb := connect()\n\tdb.Ping()\n\treturn db, nil\n}\n\nvar dbUrl = \"x\"\n"
)

// Setup starts the emulator with PR #2 changing src/store/db.go and a
// checkout of the head in a temporary directory.
func Setup(t *testing.T) (*ghtest.Server, string) {
	srv := ghtest.New(t, ghtest.Options{})
	srv.SetHead(Repo, 2, HeadSHA, []ghtest.File{{Path: "src/store/db.go", Base: DBBase, Head: DBHead}})
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "src/store"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "src/store/db.go"), []byte(DBHead), 0o644); err != nil {
		t.Fatal(err)
	}
	return srv, root
}

// BigDiff is a pull request, repo#n, whose big.go has a diff too large
// for the emulator to send (bigGo, with Options.MaxPatchBytes 10,000),
// and whose other files are extra, at their base and head: a clone of it
// (returned) and the emulator holding it. The base commit is the pull
// request's base. It returns the head commit.
func BigDiff(t *testing.T, repo string, n int, extra ...ghtest.File) (*ghtest.Server, *gittest.Repo, string) {
	t.Helper()
	bigBase, bigHead := bigGo()
	files := append([]ghtest.File{{Path: "big.go", Base: bigBase, Head: bigHead}}, extra...)
	clone := gittest.New(t)
	for _, f := range files {
		clone.Write(f.Path, f.Base)
	}
	base := clone.Commit("base")
	for _, f := range files {
		clone.Write(f.Path, f.Head)
	}
	head := clone.Commit("head")
	srv := ghtest.New(t, ghtest.Options{MaxPatchBytes: 10000})
	srv.SetHead(repo, n, head, files)
	srv.Snapshot(func(prs map[string]*ghtest.PullRequest, _ []*ghtest.CheckRun, _ []*ghtest.Status, _ []*ghtest.SARIFUpload) {
		prs[fmt.Sprintf("%s#%d", repo, n)].BaseSHA = base
	})
	if _, p, _ := srv.PR(repo, n).Change("big.go"); len(p) <= 10000 {
		t.Fatal("big.go's patch is not too large for the emulator to send")
	}
	return srv, clone, head
}

// bigGo is a Go file of 400 variables at the base and at the head, every
// line changed: its diff is larger than a patch the emulator sends with
// Options.MaxPatchBytes 10,000, as GitHub leaves out a diff too large to
// show.
func bigGo() (base, head string) {
	var b, h strings.Builder
	for i := 1; i <= 400; i++ {
		fmt.Fprintf(&b, "var v%d = %d\n", i, i)
		fmt.Fprintf(&h, "var v%d = %d\n", i, i*2)
	}
	return "package big\n\n" + b.String(), "package big\n\n" + h.String()
}
