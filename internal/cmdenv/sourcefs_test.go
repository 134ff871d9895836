package cmdenv

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestSourceRootKeepsSymlinksIn: a file under the source root that links
// outside it is not read, so its content cannot reach a fix, a line hash
// or a suggestion; a FIFO is not opened (it would block). (The convert
// command's test of the same is TestConvertSourceRootKeepsSymlinksIn.)
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
	fsys, err := SourceFS(root)
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
}
