// Package gittest builds real git repositories for tests, with the git CLI
// in a temporary directory and a configuration that ignores the user's.
// It runs git and writes files, only under the test's temporary
// directories; only tests import it.
package gittest

import (
	"bytes"
	"fmt"
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

// BenchPath is the path of file i of the benchmarks' trees:
// dNNN/sNN/fNNNNN.go, 100 files a directory, 10 sub-directories a top
// directory, every tenth file a test (fNNNNN_test.go), as
// scripts/bench-fingerprint.sh lays them out.
func BenchPath(i int) string {
	test := ""
	if i%10 == 9 {
		test = "_test"
	}
	return fmt.Sprintf("d%03d/s%02d/f%05d%s.go", i/1000, i/100%10, i, test)
}

// BenchMode is the mode of file i of the benchmarks' trees: every
// thousandth, from the eighth, executable.
func BenchMode(i int) string {
	if i%1000 == 7 {
		return "100755"
	}
	return "100644"
}

// BenchContent is the content of file i of the benchmarks' trees.
func BenchContent(i int) string { return fmt.Sprintf("package p%d // file %d\n", i%97, i) }

// BenchScopes are the scopes of issue 24's shapes on the benchmarks'
// trees, whose every top directory dNNN stands for a repository's src/:
// "d0*" selects them all, as "src" would the code of a repository.
// scripts/bench-fingerprint.sh times the same scopes as commands.
var BenchScopes = []struct {
	Name     string
	Patterns []string
}{
	{"src", []string{"d0*/**"}},
	{"src-no-tests", []string{"d0*/**", "!**/*_test.go"}},
	{"src-go", []string{"d0*/**/*.go"}},
	{"name", []string{"**/f04242.go"}},
	{"dir-name", []string{"d0*/**/f04242.go"}},
	{"ext", []string{"**/*.go"}},
}

// BenchRepo makes a repository of the n files of the benchmarks' trees,
// with one git fast-import, and returns its directory.
func BenchRepo(t testing.TB, n int) string {
	t.Helper()
	Isolate(t)
	dir := t.TempDir()
	Run(t, dir, "init", "-q", "-b", "main")
	var in bytes.Buffer
	for i := range n {
		c := BenchContent(i)
		fmt.Fprintf(&in, "blob\nmark :%d\ndata %d\n%s\n", i+1, len(c), c)
	}
	fmt.Fprintf(&in, "commit refs/heads/main\ncommitter Bench <bench@example.invalid> 1767225600 +0000\ndata 6\nbench\n")
	for i := range n {
		fmt.Fprintf(&in, "M %s :%d %s\n", BenchMode(i), i+1, BenchPath(i))
	}
	c := exec.Command("git", "-C", dir, "fast-import", "--quiet")
	c.Stdin = &in
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("git fast-import: %v\n%s", err, out)
	}
	return dir
}
