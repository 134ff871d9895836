package main

import (
	"archive/zip"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agcgate/agc-action/internal/testkit"
)

const (
	modulePath  = "github.com/agcgate/agc-action"
	testVersion = "v1.99.0"
)

// TestGoInstallLatest is the README's install line, "go install
// github.com/agcgate/agc-action/cmd/agc-sarif@latest", against a local
// module proxy built from this checkout (GOPROXY=file://…, the layout of
// the GOPROXY protocol: @v/list, .info, .mod, .zip), with the
// dependencies served from the module cache already on this machine, so
// nothing reaches the network. The binary installed reports the module
// version from its build information.
func TestGoInstallLatest(t *testing.T) {
	if testing.Short() {
		t.Skip("builds agc-sarif from a module proxy; skipped under -short")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	root := testkit.RepoRoot(t)
	cache := goEnv(t, goBin, "GOMODCACHE")
	if _, err := os.Stat(filepath.Join(cache, "cache", "download")); err != nil {
		testkit.Missing(t, "the module cache (go mod download)", err)
	}
	proxy := t.TempDir()
	buildProxy(t, root, proxy)
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "bin")
	cmd := exec.Command(goBin, "install", modulePath+"/cmd/agc-sarif@latest")
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(),
		"GOPROXY=file://"+filepath.ToSlash(proxy)+",file://"+filepath.ToSlash(filepath.Join(cache, "cache", "download")),
		"GOFLAGS=-modcacherw", "GOSUMDB=off", "GONOSUMDB=*", "GOPRIVATE=", "GONOSUMCHECK=1", "GOTOOLCHAIN=local",
		"GOMODCACHE="+filepath.Join(tmp, "modcache"), "GOBIN="+bin, "GOWORK=off", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go install: %v\n%s", err, out)
	}
	out, err := exec.Command(filepath.Join(bin, "agc-sarif"), "--version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "agc-sarif "+testVersion) {
		t.Fatalf("--version: %v, %q; want agc-sarif %s", err, out, testVersion)
	}
}

func goEnv(t *testing.T, goBin, name string) string {
	out, err := exec.Command(goBin, "env", name).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// buildProxy writes the GOPROXY layout for one version of this module:
// the module's files (git ls-files, tracked and untracked but not
// ignored, without symlinks) zipped under
// module@version/.
func buildProxy(t *testing.T, root, proxy string) {
	dir := filepath.Join(proxy, modulePath, "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	info := `{"Version":"` + testVersion + `","Time":"` + time.Now().UTC().Format(time.RFC3339) + `"}`
	for name, data := range map[string]string{"list": testVersion + "\n", testVersion + ".info": info, testVersion + ".mod": string(mod)} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ls := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	ls.Dir = root
	list, err := ls.Output()
	if err != nil {
		t.Skipf("git ls-files: %v (not a checkout)", err)
	}
	f, err := os.Create(filepath.Join(dir, testVersion+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	z := zip.NewWriter(f)
	names := strings.Split(strings.TrimRight(string(list), "\x00"), "\x00")
	// A directory below the root that holds a go.mod is a module of its
	// own (tools/ is), and a module zip leaves it out, as the go command
	// does when it makes one.
	var nested []string
	for _, name := range names {
		if path.Base(name) == "go.mod" && name != "go.mod" {
			nested = append(nested, path.Dir(name)+"/")
		}
	}
	for _, name := range names {
		if slices.ContainsFunc(nested, func(d string) bool { return strings.HasPrefix(name, d) }) {
			continue
		}
		st, err := os.Lstat(filepath.Join(root, name))
		if err != nil || !st.Mode().IsRegular() {
			continue // deleted in the worktree, or a symlink (not allowed in a module zip)
		}
		data, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		w, err := z.Create(modulePath + "@" + testVersion + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
