// Package testkit holds what many packages' tests need: the repository
// root, the pinned external tools that scripts/setup.sh installs, globs that
// refuse to match nothing, and one loader of AGC responses.
//
// A test that needs an installed tool asks for it here. When the tool is
// missing, the test is skipped with a message naming `make setup`, so
// `go test ./...` on a fresh clone explains itself; `make test` (and so CI)
// sets AGC_REQUIRE_TOOLS=1, and then a missing tool fails the test instead,
// so a broken setup can never pass as a skip.
//
// It reads files, stats paths and sends a test's HTTP requests (Send); it
// runs nothing. Only tests import it.
package testkit

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
)

// RequireEnv is the variable that turns a missing tool from a skip into a
// failure.
const RequireEnv = "AGC_REQUIRE_TOOLS"

// RepoRoot is the directory holding the module's go.mod, found upwards from
// the test's working directory.
func RepoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = parent
	}
}

// Missing skips the test, or fails it under AGC_REQUIRE_TOOLS, saying what
// is missing and how to install it.
func Missing(t testing.TB, what string, err error) {
	t.Helper()
	msg := what + " is not installed"
	if err != nil {
		msg += " (" + err.Error() + ")"
	}
	msg += ": run `make setup` (make test does)"
	if os.Getenv(RequireEnv) != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// File returns the path of a tool file under the repository's tools/,
// skipping or failing the test (see Missing) when it is absent.
func File(t testing.TB, what string, rel ...string) string {
	t.Helper()
	p := filepath.Join(append([]string{RepoRoot(t), "tools"}, rel...)...)
	if _, err := os.Stat(p); err != nil {
		Missing(t, what, err)
	}
	return p
}

// Multitool is Microsoft's SARIF Multitool 5.7.0.
func Multitool(t testing.TB) string {
	t.Helper()
	return File(t, "the SARIF Multitool", "node_modules", "@microsoft", "sarif-multitool-linux", "Sarif.Multitool")
}

// Copilot is the native executable of GitHub Copilot CLI 1.0.102
// (@github/copilot's platform package, which its npm launcher runs), for
// this platform; a platform npm has no package for counts as missing.
func Copilot(t testing.TB) string {
	t.Helper()
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	goos, name := runtime.GOOS, "copilot"
	if goos == "windows" {
		goos, name = "win32", "copilot.exe"
	}
	return File(t, "GitHub Copilot CLI", "node_modules", "@github", "copilot-"+goos+"-"+arch, name)
}

// Corpus lists the shared corpus of real tools' SARIF logs:
// $AGC_SARIF_CORPUS, else shared/sarif-corpus beside the repository (where
// the workspace and CI keep it). It skips, or fails under
// AGC_REQUIRE_TOOLS, when there is none.
func Corpus(t testing.TB) []string {
	t.Helper()
	dir := os.Getenv("AGC_SARIF_CORPUS")
	if dir == "" {
		dir = filepath.Join(RepoRoot(t), "..", "shared", "sarif-corpus")
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.sarif"))
	if err == nil && len(files) == 0 {
		err = os.ErrNotExist
	}
	if err != nil {
		msg := "no SARIF corpus in " + dir + " (" + err.Error() + "): set AGC_SARIF_CORPUS to the shared sarif-corpus folder"
		if os.Getenv(RequireEnv) != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	sort.Strings(files)
	return files
}

// Glob is filepath.Glob for tests: a pattern that matches nothing fails the
// test, so a renamed folder cannot turn a table test into one that checks
// nothing. The matches are sorted.
func Glob(t testing.TB, patterns ...string) []string {
	t.Helper()
	var all []string
	for _, p := range patterns {
		m, err := filepath.Glob(p)
		if err != nil {
			t.Fatalf("glob %s: %v", p, err)
		}
		if len(m) == 0 {
			t.Fatalf("glob %s matches no file", p)
		}
		all = append(all, m...)
	}
	sort.Strings(all)
	return all
}

// Response reads and strictly decodes one AGC response, failing the test
// on any error.
func Response(t testing.TB, path string) *agc.Response {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := agc.Decode(path, data, agc.Limits{})
	if err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
	return r
}

// NodeFile returns the path of a file of an npm package under
// tools/node_modules, or under $AGC_NODE_MODULES when set (a node_modules
// installed from tools/package-lock.json elsewhere), with node on PATH;
// it skips or fails (Missing) when either is absent.
func NodeFile(t testing.TB, what string, rel ...string) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		Missing(t, "node", err)
	}
	dir := os.Getenv("AGC_NODE_MODULES")
	if dir == "" {
		return File(t, what, append([]string{"node_modules"}, rel...)...)
	}
	p := filepath.Join(append([]string{dir}, rel...)...)
	if _, err := os.Stat(p); err != nil {
		Missing(t, what, err)
	}
	return p
}

// WantErr checks err against want, the text a table case expects the
// error to contain ("" for none): it fails the test when err is not as
// expected, and reports whether an error was expected, so that the case
// can stop there.
func WantErr(t testing.TB, err error, want string) bool {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Fatalf("unexpected error: %v", err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Fatalf("err = %v, want one containing %q", err, want)
	}
	return want != ""
}

// Strings is the String of each of xs, for comparing lints, changes and
// the like with the lines a test expects; nil when xs is empty, as a list
// appended to from nothing would be.
func Strings[T fmt.Stringer](xs []T) []string {
	if len(xs) == 0 {
		return nil
	}
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.String()
	}
	return out
}

// Send sends a request with the default client, with the headers given as
// name and value pairs (an empty value is not sent), and returns the
// answer with its whole body, failing the test when either cannot be had.
func Send(t testing.TB, method, url string, body io.Reader, header ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i+1] != "" {
			req.Header.Set(header[i], header[i+1])
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}
