// Package gittest builds real git repositories for tests, with the git CLI
// in a temporary directory and a configuration that ignores the user's.
// It runs git and writes files, only under the test's temporary
// directories; only tests import it.
package gittest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Repo is a work tree under t.TempDir.
type Repo struct {
	T   testing.TB
	Dir string
}

// Isolate points git at no global or system configuration and fixes the
// author and committer, for the whole test.
func Isolate(t testing.TB) {
	t.Helper()
	for k, v := range map[string]string{
		"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.invalid",
		"GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.invalid",
		"GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
	} {
		t.Setenv(k, v)
	}
}

// New initialises an empty repository on branch main.
func New(t testing.TB) *Repo {
	t.Helper()
	Isolate(t)
	r := &Repo{T: t, Dir: t.TempDir()}
	r.Git("init", "-q", "-b", "main")
	return r
}

// Git runs git in the repository and returns its trimmed output.
func (r *Repo) Git(args ...string) string {
	r.T.Helper()
	return Run(r.T, r.Dir, args...)
}

// Run runs git in dir and returns its trimmed output, failing the test on
// error.
func Run(t testing.TB, dir string, args ...string) string {
	t.Helper()
	c := exec.Command("git", append([]string{"-C", dir}, args...)...)
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// Write writes files (path, content pairs) into the work tree.
func (r *Repo) Write(pathContent ...string) {
	r.T.Helper()
	for i := 0; i+1 < len(pathContent); i += 2 {
		p := filepath.Join(r.Dir, filepath.FromSlash(pathContent[i]))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			r.T.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(pathContent[i+1]), 0o644); err != nil {
			r.T.Fatal(err)
		}
	}
}

// Symlink creates a symlink at path pointing to target.
func (r *Repo) Symlink(target, path string) {
	r.T.Helper()
	p := filepath.Join(r.Dir, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.T.Fatal(err)
	}
	os.Remove(p)
	if err := os.Symlink(target, p); err != nil {
		r.T.Fatal(err)
	}
}

// Commit stages everything and commits, returning the commit id.
func (r *Repo) Commit(msg string) string {
	r.T.Helper()
	r.Git("add", "-A")
	r.Git("commit", "-q", "--allow-empty", "-m", msg)
	return r.Git("rev-parse", "HEAD")
}
