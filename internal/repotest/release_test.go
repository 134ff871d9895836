package repotest

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agcgate/agc-action/internal/testkit"
)

const goreleaserVersion = "v2.15.1"

// goreleaser is GoReleaser as scripts/setup.sh installs it.
func goreleaser(t *testing.T) string {
	t.Helper()
	gr := testkit.File(t, "GoReleaser", "bin", "goreleaser")
	out, err := exec.Command(gr, "--version").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "GitVersion:    "+goreleaserVersion+"\n") {
		testkit.Missing(t, "GoReleaser "+goreleaserVersion, err)
	}
	return gr
}

// TestGoreleaserCheck runs `goreleaser check` on .goreleaser.yaml, and on
// a broken copy to show the check can fail.
func TestGoreleaserCheck(t *testing.T) {
	gr := goreleaser(t)
	check := func(config string) ([]byte, error) {
		cmd := exec.Command(gr, "check", "--config", config)
		cmd.Dir = root
		return cmd.CombinedOutput()
	}
	if out, err := check(".goreleaser.yaml"); err != nil {
		t.Fatalf("goreleaser check: %v\n%s", err, out)
	}
	cfg, err := os.ReadFile(filepath.Join(root, ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(t.TempDir(), "broken.yaml")
	if err := os.WriteFile(broken, bytes.Replace(cfg, []byte("name_template: checksums.txt"), []byte("name_templat: checksums.txt"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := check(broken); err == nil {
		t.Fatalf("goreleaser check accepted an unknown field:\n%s", out)
	}
}

// platforms are the release's archives, as GoReleaser names the targets
// and as the runner names them (RUNNER_OS, RUNNER_ARCH).
var platforms = []struct{ goos, goarch, runnerOS, runnerArch, ext string }{
	{"linux", "amd64", "Linux", "X64", "tar.gz"},
	{"linux", "arm64", "Linux", "ARM64", "tar.gz"},
	{"darwin", "amd64", "macOS", "X64", "tar.gz"},
	{"darwin", "arm64", "macOS", "ARM64", "tar.gz"},
	{"windows", "amd64", "Windows", "X64", "zip"},
	{"windows", "arm64", "Windows", "ARM64", "zip"},
}

func archiveName(version, goos, goarch, ext string) string {
	return "agc-sarif_" + version + "_" + goos + "_" + goarch + "." + ext
}

// snapshot is one build of the release archives.
type snapshot struct {
	dir, version, commit string
	sums                 map[string]string // archive name: SHA-256, from checksums.txt
	checksums            []byte
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// cleanClone clones commit rev of this repository into a new directory, as
// CI's fresh clone is, with this checkout's installed tools linked in.
func cleanClone(t *testing.T, rev string) string {
	t.Helper()
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "agc-action")
	git(t, abs, "clone", "-q", "--no-checkout", abs, dir)
	git(t, dir, "-c", "advice.detachedHead=false", "checkout", "-q", rev)
	if err := os.Symlink(filepath.Join(abs, "tools", "bin"), filepath.Join(dir, "tools", "bin")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// buildSnapshot runs cmd (make release-snapshot or scripts/release-build.sh)
// in dir and reads the archives it wrote to dist.
func buildSnapshot(t *testing.T, dir, dist string, args ...string) *snapshot {
	t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = os.Environ()
	if dist != filepath.Join(dir, "dist") {
		cmd.Env = append(cmd.Env, "DIST="+dist)
	}
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
	t.Logf("%s in %s: %s", strings.Join(args, " "), dir, time.Since(start).Round(time.Second))
	var meta struct {
		Version string `json:"version"`
		Commit  string `json:"commit"`
	}
	data, err := os.ReadFile(filepath.Join(dist, "metadata.json"))
	if err == nil {
		err = json.Unmarshal(data, &meta)
	}
	if err != nil {
		t.Fatalf("the build's metadata.json: %v", err)
	}
	s := &snapshot{dir: dist, version: meta.Version, commit: meta.Commit, sums: map[string]string{}}
	if s.checksums, err = os.ReadFile(filepath.Join(dist, "checksums.txt")); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSuffix(string(s.checksums), "\n"), "\n") {
		sum, name, ok := strings.Cut(line, "  ")
		if !ok {
			t.Fatalf("checksums.txt: line %q is not SUM  NAME", line)
		}
		s.sums[name] = sum
	}
	return s
}

func sha256File(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// TestRelease builds the release archives as `make release-snapshot` does
// on a clean clone of HEAD, checks them, checks that a second build
// elsewhere gives the same bytes, and runs the Action's step on them as a
// runner would (actionstep_test.go).
func TestRelease(t *testing.T) {
	goreleaser(t)
	rev := git(t, root, "rev-parse", "HEAD")
	clone := cleanClone(t, rev)
	snap := buildSnapshot(t, clone, filepath.Join(clone, "dist"), "make", "--no-print-directory", "release-snapshot")

	t.Run("six archives and their checksums", func(t *testing.T) {
		if snap.commit != rev {
			t.Errorf("the build stamped commit %q, want HEAD %s", snap.commit, rev)
		}
		var want []string
		for _, p := range platforms {
			want = append(want, archiveName(snap.version, p.goos, p.goarch, p.ext))
		}
		var got []string
		for name := range snap.sums {
			got = append(got, name)
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("checksums.txt lists %v, want %v", got, want)
		}
		for name, sum := range snap.sums {
			if got := sha256File(t, filepath.Join(snap.dir, name)); got != sum {
				t.Errorf("%s has SHA-256 %s, checksums.txt says %s", name, got, sum)
			}
		}
		for _, p := range platforms {
			exe := "agc-sarif"
			if p.goos == "windows" {
				exe += ".exe"
			}
			name := archiveName(snap.version, p.goos, p.goarch, p.ext)
			files := archiveFiles(t, filepath.Join(snap.dir, name))
			if want := []string{"LICENSE", "README.md", exe}; !slices.Equal(files, want) {
				t.Errorf("%s holds %v, want %v", name, files, want)
			}
		}
	})

	t.Run("the binary names its version and commit", func(t *testing.T) {
		if runtime.GOOS != "linux" {
			t.Skip("runs the linux archive's binary")
		}
		dir := t.TempDir()
		name := archiveName(snap.version, "linux", runtime.GOARCH, "tar.gz")
		untar(t, filepath.Join(snap.dir, name), dir)
		out, err := exec.Command(filepath.Join(dir, "agc-sarif"), "version").CombinedOutput()
		if want := "agc-sarif " + snap.version + " (" + rev + ")\n"; err != nil || string(out) != want {
			t.Fatalf("agc-sarif version: %v %q, want %q", err, out, want)
		}
		// The same binary passes the smoke test the image gets on GitHub.
		smoke := exec.Command("./scripts/smoke.sh", filepath.Join(dir, "agc-sarif"))
		smoke.Dir = clone
		if out, err := smoke.CombinedOutput(); err != nil {
			t.Fatalf("scripts/smoke.sh: %v\n%s", err, out)
		}
	})

	// Another clone, at another path, checked out at another time.
	other := cleanClone(t, rev)

	t.Run("reproducible", func(t *testing.T) {
		again := buildSnapshot(t, other, filepath.Join(t.TempDir(), "dist"), "./scripts/release-build.sh")
		if !bytes.Equal(again.checksums, snap.checksums) {
			t.Fatalf("a second build of %s gave other archives:\n%s\nthen\n%s", rev, snap.checksums, again.checksums)
		}
	})

	t.Run("a release build names its version", func(t *testing.T) {
		// What the release workflow runs, here with a version no release has.
		rel := buildSnapshot(t, other, filepath.Join(t.TempDir(), "dist"), "./scripts/release-build.sh", "v0.99.0")
		name := archiveName("0.99.0", "linux", runtime.GOARCH, "tar.gz")
		if rel.version != "0.99.0" || rel.sums[name] == "" || len(rel.sums) != len(platforms) {
			t.Fatalf("release v0.99.0 built version %q with %v", rel.version, rel.sums)
		}
		if runtime.GOOS == "linux" {
			dir := t.TempDir()
			untar(t, filepath.Join(rel.dir, name), dir)
			out, err := exec.Command(filepath.Join(dir, "agc-sarif"), "version").CombinedOutput()
			if want := "agc-sarif 0.99.0 (" + rev + ")\n"; err != nil || string(out) != want {
				t.Errorf("agc-sarif version: %v %q, want %q", err, out, want)
			}
		}
		// A release is built from a commit, with a version of three numbers.
		if err := os.WriteFile(filepath.Join(other, "README.md"), []byte("changed\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ version, want string }{
			{"v0.99.1", "the work tree is not clean"},
			{"0.99.1", "the version 0.99.1 is not vMAJOR.MINOR.PATCH"},
			{"v0.99.1-rc", "the version v0.99.1-rc is not vMAJOR.MINOR.PATCH"},
		} {
			cmd := exec.Command("./scripts/release-build.sh", c.version)
			cmd.Dir = other
			out, err := cmd.CombinedOutput()
			if exitCode(err) != 2 || !strings.Contains(string(out), c.want) {
				t.Errorf("release-build.sh %s: exit %d, want 2 and %q:\n%s", c.version, exitCode(err), c.want, out)
			}
		}
	})

	t.Run("action", func(t *testing.T) { testActionStep(t, snap, clone) })
}

// archiveFiles lists the names in a .tar.gz or .zip, sorted.
func archiveFiles(t *testing.T, path string) []string {
	t.Helper()
	var names []string
	if strings.HasSuffix(path, ".zip") {
		z, err := zip.OpenReader(path)
		if err != nil {
			t.Fatal(err)
		}
		defer z.Close()
		for _, f := range z.File {
			names = append(names, f.Name)
		}
	} else {
		eachTar(t, path, func(h *tar.Header, _ io.Reader) { names = append(names, h.Name) })
	}
	slices.Sort(names)
	return names
}

func eachTar(t *testing.T, path string, fn func(*tar.Header, io.Reader)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		fn(h, tr)
	}
}

func untar(t *testing.T, path, dir string) {
	t.Helper()
	eachTar(t, path, func(h *tar.Header, r io.Reader) {
		data, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(h.Name)), data, os.FileMode(h.Mode)&0o777); err != nil {
			t.Fatal(err)
		}
	})
}
