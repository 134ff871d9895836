package action

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agcgate/agc-action/ghapi/ghtest"
)

// The pull request the Action's tests run on, as internal/cli's github
// tests use it: Codertocat/Hello-World #2 of the real synchronize payload.
const (
	ghRepo    = "Codertocat/Hello-World"
	ghHeadSHA = "ec26c3e57ca3a959ca5aad62de7213c562f8c821" // in the synchronize fixture
	ghEvent   = "../../fixtures/webhooks/pull_request.synchronize.json"
	ghPatch   = "../../fixtures/agc/valid/block-patch.json"
)

const dbBase = "package store\n\nfunc Open() (*DB, error) {\n\tdb := connect()\n\treturn db, nil\n}\n"
const dbHead = "package store\n\nfunc Open() (*DB, error) {\n\tdb := connect()\n\tdb.Ping()\n\treturn db, nil\n}\n\nvar dbUrl = \"x\"\n"

// ghSetup starts the emulator with PR #2 changing src/store/db.go and a
// checkout of the head in a temporary directory.
func ghSetup(t *testing.T) (*ghtest.Server, string) {
	srv := ghtest.New(t, ghtest.Options{})
	srv.SetHead(ghRepo, 2, ghHeadSHA, []ghtest.File{{Path: "src/store/db.go", Base: dbBase, Head: dbHead}})
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "src/store"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "src/store/db.go"), []byte(dbHead), 0o644); err != nil {
		t.Fatal(err)
	}
	return srv, root
}
