package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestSourceRootKeepsSymlinksIn: a file under the source root that links
// outside it is not read, so its content cannot reach a fix, a line hash
// or a suggestion; a FIFO is not opened (it would block).
func TestSourceRootKeepsSymlinksIn(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	if err := os.WriteFile(secret, []byte("SECRET=hunter2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if err := os.Symlink(secret, filepath.Join(root, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "fifo.txt"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "ok.txt"), []byte("fine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fsys, err := sourceFS(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"link.txt", "fifo.txt", "../" + filepath.Base(outside) + "/secret.txt"} {
		if f, err := fsys.Open(name); err == nil {
			f.Close()
			t.Errorf("%s opened through the source root", name)
		}
	}
	if f, err := fsys.Open("ok.txt"); err != nil {
		t.Errorf("a regular file must open: %v", err)
	} else {
		f.Close()
	}

	log := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"ruleId":"r","level":"error","message":{"text":"m"},
	  "locations":[{"physicalLocation":{"artifactLocation":{"uri":"link.txt"},"region":{"startLine":1}}}],
	  "fixes":[{"artifactChanges":[{"artifactLocation":{"uri":"link.txt"},"replacements":[{"deletedRegion":{"startLine":1,"startColumn":1,"endColumn":10},"insertedContent":{"text":"X"}}]}]}]}]}]}`
	code, out, errs := run(t, log, "convert", "--source-root", root, "--to", "agc", "-")
	if code == ExitUsage {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Contains(out, "hunter2") {
		t.Fatalf("the symlink's target leaked into the output:\n%s", out)
	}
}
