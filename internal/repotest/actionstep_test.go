package repotest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agcgate/agc-action/internal/testkit"
	"go.yaml.in/yaml/v4"
)

// actionFile is the part of action.yml the runner reads to run the Action.
type actionFile struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Using string `yaml:"using"`
		Steps []struct {
			ID    string            `yaml:"id"`
			Shell string            `yaml:"shell"`
			Env   map[string]string `yaml:"env"`
			Run   string            `yaml:"run"`
		} `yaml:"steps"`
	} `yaml:"runs"`
}

func readAction(t *testing.T, path string) *actionFile {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var a actionFile
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if a.Runs.Using != "composite" || len(a.Runs.Steps) != 1 || a.Runs.Steps[0].Shell != "bash" {
		t.Fatalf("%s: want a composite action of one bash step, got %+v", path, a.Runs)
	}
	return &a
}

var inputExpr = regexp.MustCompile(`^\$\{\{ *inputs\.([a-z0-9-]+) *\}\}$`)

// stepEnv evaluates the step's env block as the runner does for the
// expressions action.yml uses: ${{ inputs.NAME }} is the input given, else
// its default (whose ${{ github.token }} is token). Any other expression
// fails the test, so the emulation cannot silently drift from action.yml.
func (a *actionFile) stepEnv(t *testing.T, inputs map[string]string, token string) []string {
	t.Helper()
	for name := range inputs {
		if _, ok := a.Inputs[name]; !ok {
			t.Fatalf("action.yml defines no input %q", name)
		}
	}
	var env []string
	for k, v := range a.Runs.Steps[0].Env {
		if m := inputExpr.FindStringSubmatch(v); m != nil {
			in, ok := a.Inputs[m[1]]
			if !ok {
				t.Fatalf("env %s names the undefined input %s", k, m[1])
			}
			v = in.Default
			if given, ok := inputs[m[1]]; ok {
				v = given
			}
			if v == "${{ github.token }}" {
				v = token
			}
		}
		if strings.Contains(v, "${{") {
			t.Fatalf("env %s: the test does not evaluate %q", k, v)
		}
		env = append(env, k+"="+v)
	}
	return env
}

// runner is one job's runner: its directories and the commands on its PATH.
type runner struct {
	t                      *testing.T
	os, arch               string // RUNNER_OS, RUNNER_ARCH
	serverURL              string // GITHUB_SERVER_URL
	actionPath             string // GITHUB_ACTION_PATH
	toolCache, temp, work  string
	bin                    string // the only directory on PATH
	output, githubEnv, sum string
}

// stepTools are the commands the step may run; nothing else is on PATH
// (in particular no docker unless a test puts one there).
var stepTools = []string{"bash", "env", "id", "sha256sum", "curl", "tar", "gzip", "unzip", "mkdir", "rm", "cp", "mv"}

func newRunner(t *testing.T, actionPath, serverURL string) *runner {
	t.Helper()
	dir := t.TempDir()
	r := &runner{t: t, os: "Linux", arch: "X64", serverURL: serverURL, actionPath: actionPath,
		toolCache: filepath.Join(dir, "toolcache"), temp: filepath.Join(dir, "temp"),
		work: filepath.Join(dir, "work"), bin: filepath.Join(dir, "bin")}
	for _, d := range []string{r.toolCache, r.temp, r.work, r.bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, tool := range stepTools {
		r.link(tool)
	}
	r.output = filepath.Join(r.temp, "_runner_file_commands", "set_output")
	r.githubEnv = filepath.Join(r.temp, "_runner_file_commands", "set_env")
	r.sum = filepath.Join(r.temp, "_runner_file_commands", "step_summary")
	if err := os.MkdirAll(filepath.Dir(r.output), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{r.output, r.githubEnv, r.sum} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The gate's answer the Action reads from the workspace.
	answer, err := os.ReadFile(filepath.Join(root, "fixtures/agc/valid/allow-empty.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.work, "answer.json"), answer, 0o644); err != nil {
		t.Fatal(err)
	}
	return r
}

// link puts the host's command name on the runner's PATH.
func (r *runner) link(name string) {
	r.t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		// Debian's own packages on every machine of this kind, not tools
		// make setup installs.
		if os.Getenv(testkit.RequireEnv) != "" {
			r.t.Fatalf("the action step test needs %s on PATH: %v", name, err)
		}
		r.t.Skipf("the action step test needs %s on PATH: %v", name, err)
	}
	if err := os.Symlink(p, filepath.Join(r.bin, name)); err != nil {
		r.t.Fatal(err)
	}
}

// fakeDocker puts a docker on PATH that records its arguments, one a line.
func (r *runner) fakeDocker() (argsFile string) {
	r.t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		r.t.Fatal(err)
	}
	argsFile = filepath.Join(r.t.TempDir(), "docker-args")
	script := fmt.Sprintf("#!%s\nprintf '%%s\\n' \"$@\" > %q\n", bash, argsFile)
	if err := os.WriteFile(filepath.Join(r.bin, "docker"), []byte(script), 0o755); err != nil {
		r.t.Fatal(err)
	}
	return argsFile
}

// stepResult is what one run of the step left.
type stepResult struct {
	err     error
	log     string // stdout and stderr, as the job log shows them
	outputs string // GITHUB_OUTPUT
}

// run runs the action's step as the runner runs a composite action's bash
// step: the script in a file under RUNNER_TEMP, `bash --noprofile --norc
// -e -o pipefail FILE`, with the runner's variables and the step's env.
func (r *runner) run(a *actionFile, inputs map[string]string, extraEnv ...string) stepResult {
	r.t.Helper()
	if err := os.WriteFile(r.output, nil, 0o644); err != nil {
		r.t.Fatal(err)
	}
	script := filepath.Join(r.temp, "agc-step.sh")
	if err := os.WriteFile(script, []byte(a.Runs.Steps[0].Run), 0o644); err != nil {
		r.t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(r.bin, "bash"), "--noprofile", "--norc", "-e", "-o", "pipefail", script)
	cmd.Dir = r.work
	cmd.Env = append([]string{
		"PATH=" + r.bin,
		"HOME=" + r.temp,
		"CI=true",
		"RUNNER_OS=" + r.os,
		"RUNNER_ARCH=" + r.arch,
		"RUNNER_TOOL_CACHE=" + r.toolCache,
		"RUNNER_TEMP=" + r.temp,
		"GITHUB_ACTIONS=true",
		"GITHUB_ACTION_PATH=" + r.actionPath,
		"GITHUB_WORKSPACE=" + r.work,
		"GITHUB_OUTPUT=" + r.output,
		"GITHUB_ENV=" + r.githubEnv,
		"GITHUB_STEP_SUMMARY=" + r.sum,
		"GITHUB_SERVER_URL=" + r.serverURL,
		"GITHUB_API_URL=" + r.serverURL + "/api/v3",
		"GITHUB_REPOSITORY=agcgate/agc-action",
		"GITHUB_EVENT_NAME=workflow_dispatch",
		"GITHUB_SHA=0123456789abcdef0123456789abcdef01234567",
		"GITHUB_REF=refs/heads/main",
	}, a.stepEnv(r.t, inputs, "test-token")...)
	cmd.Env = append(cmd.Env, extraEnv...)
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	err := cmd.Run()
	out, rerr := os.ReadFile(r.output)
	if rerr != nil {
		r.t.Fatal(rerr)
	}
	return stepResult{err: err, log: log.String(), outputs: string(out)}
}

// output reads one output from GITHUB_OUTPUT's NAME<<DELIMITER form.
func (s stepResult) output(name string) string {
	re := regexp.MustCompile(`(?s)(?:^|\n)` + regexp.QuoteMeta(name) + `<<(\S+)\n(.*?)\n(\S+)`)
	for _, m := range re.FindAllStringSubmatch(s.outputs, -1) {
		if m[1] == m[3] {
			return m[2]
		}
	}
	return ""
}

// releaseServer serves a release's archives at
// /OWNER/REPO/releases/download/TAG/NAME, as GitHub does, and records every
// request. Any other path (the API among them) is a 404 and recorded too.
type releaseServer struct {
	*httptest.Server
	mu       sync.Mutex
	files    map[string][]byte // URL path: content
	requests []string
}

func newReleaseServer(t *testing.T) *releaseServer {
	s := &releaseServer{files: map[string][]byte{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		s.mu.Lock()
		s.requests = append(s.requests, req.Method+" "+req.URL.Path)
		body, ok := s.files[req.URL.Path]
		s.mu.Unlock()
		if !ok || req.Method != http.MethodGet {
			http.NotFound(w, req)
			return
		}
		_, _ = w.Write(body)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *releaseServer) serve(path string, body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files[path] = body
}

// take returns the requests since the last call.
func (s *releaseServer) take() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.requests
	s.requests = nil
	return r
}

// testImage is the image the tests record as a release's: no image is
// built here (only GitHub can), so its digest is that of a name.
func testImage() string {
	sum := sha256.Sum256([]byte("agc-action test image"))
	return "ghcr.io/agcgate/agc-action@sha256:" + hex.EncodeToString(sum[:])
}

// recordedAction is the action at release tag: action.yml with the release
// record of snap written by scripts/release-record.sh, as the release
// workflow writes it, in a directory of its own (GITHUB_ACTION_PATH).
func recordedAction(t *testing.T, snap *snapshot, tag string) (string, *actionFile) {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "action.yml")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("./scripts/release-record.sh", tag, testImage(), filepath.Join(snap.dir, "checksums.txt"), path)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GITHUB_REPOSITORY=agcgate/agc-action")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("scripts/release-record.sh: %v\n%s", err, out)
	}
	return dir, readAction(t, path)
}

func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// goEnv is the environment the go command needs on the runner's PATH: this
// machine's caches and proxy settings.
func goEnv(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("go", "env", "-json", "GOCACHE", "GOMODCACHE", "GOPATH", "GOPROXY", "GOFLAGS", "GONOSUMDB", "GOSUMDB", "GOTOOLCHAIN").Output()
	if err != nil {
		t.Fatal(err)
	}
	var vars map[string]string
	if err := json.Unmarshal(out, &vars); err != nil {
		t.Fatal(err)
	}
	var env []string
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	return env
}

// testActionStep runs the step of action.yml as a runner would, on the
// archives of snap served by a loopback "GitHub": the released action
// (recorded as the release workflow records it) and the unreleased one
// (this checkout's action.yml, with clone as its source).
func testActionStep(t *testing.T, snap *snapshot, clone string) {
	tag := "v" + snap.version
	actionDir, action := recordedAction(t, snap, tag)
	base := "/agcgate/agc-action/releases/download/" + tag + "/"
	serveAll := func(s *releaseServer) {
		for name := range snap.sums {
			data, err := os.ReadFile(filepath.Join(snap.dir, name))
			if err != nil {
				t.Fatal(err)
			}
			s.serve(base+name, data)
		}
	}
	hostArch := map[string]string{"amd64": "X64", "arm64": "ARM64"}[runtime.GOARCH]
	if runtime.GOOS != "linux" || hostArch == "" {
		t.Skipf("runs the linux archives' binaries; this is %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	hostName := archiveName(snap.version, "linux", runtime.GOARCH, "tar.gz")
	inputs := map[string]string{"agc": "answer.json", "check": "false"}

	t.Run("the release record", func(t *testing.T) {
		env := action.Runs.Steps[0].Env
		for k, want := range map[string]string{
			"AGC_RELEASE_VERSION":    tag,
			"AGC_RELEASE_REPOSITORY": "agcgate/agc-action",
			"AGC_RELEASE_IMAGE":      testImage(),
			"AGC_RELEASE_SHA256":     string(snap.checksums),
		} {
			if env[k] != want {
				t.Errorf("%s = %q, want %q", k, env[k], want)
			}
		}
		// Recording twice is refused: the record of a release is final.
		again := exec.Command("./scripts/release-record.sh", tag, testImage(), filepath.Join(snap.dir, "checksums.txt"), filepath.Join(actionDir, "action.yml"))
		again.Dir = root
		if out, err := again.CombinedOutput(); err == nil || !strings.Contains(string(out), "no empty release record") {
			t.Errorf("recording a release twice: %v\n%s", err, out)
		}
	})

	t.Run("without docker the archive is fetched, verified, cached and run", func(t *testing.T) {
		srv := newReleaseServer(t)
		serveAll(srv)
		r := newRunner(t, actionDir, srv.URL)
		r.arch = hostArch
		res := r.run(action, inputs)
		if res.err != nil {
			t.Fatalf("the step failed: %v\n%s", res.err, res.log)
		}
		if got, want := srv.take(), []string{"GET " + base + hostName}; !slices.Equal(got, want) {
			t.Errorf("requests %v, want %v", got, want)
		}
		if v := res.output("verdict"); v != "allow" {
			t.Errorf("verdict %q, want allow (agc-sarif action did not run?)\n%s", v, res.log)
		}
		if want := "running agc-sarif " + tag + " (" + hostName + ", SHA-256 " + snap.sums[hostName] + ")"; !strings.Contains(res.log, want) {
			t.Errorf("the log does not say %q:\n%s", want, res.log)
		}
		cached := filepath.Join(r.toolCache, "agc-sarif", snap.version, runtime.GOARCH, hostName)
		if got := sha256File(t, cached); got != snap.sums[hostName] {
			t.Errorf("the tool cache holds %s with SHA-256 %s", cached, got)
		}

		// The next job on this runner takes it from the tool cache.
		srv2 := newReleaseServer(t)
		r.serverURL = srv2.URL
		res = r.run(action, inputs)
		if res.err != nil || res.output("verdict") != "allow" {
			t.Fatalf("the step failed from the tool cache: %v\n%s", res.err, res.log)
		}
		if got := srv2.take(); len(got) != 0 {
			t.Errorf("with the archive in the tool cache, the step still requested %v", got)
		}
	})

	t.Run("every runner fetches its own archive", func(t *testing.T) {
		for _, p := range platforms {
			t.Run(p.runnerOS+"/"+p.runnerArch, func(t *testing.T) {
				srv := newReleaseServer(t)
				serveAll(srv)
				r := newRunner(t, actionDir, srv.URL)
				r.os, r.arch = p.runnerOS, p.runnerArch
				r.fakeDocker() // only Linux runs the image
				if p.runnerOS == "Linux" {
					os.Remove(filepath.Join(r.bin, "docker"))
				}
				res := r.run(action, inputs)
				name := archiveName(snap.version, p.goos, p.goarch, p.ext)
				if got, want := srv.take(), []string{"GET " + base + name}; !slices.Equal(got, want) {
					t.Errorf("requests %v, want %v\n%s", got, want, res.log)
				}
				// Verified and unpacked; only this machine's own binary can run here.
				if want := "running agc-sarif " + tag + " (" + name + ", SHA-256 " + snap.sums[name] + ")"; !strings.Contains(res.log, want) {
					t.Errorf("the log does not say %q:\n%s", want, res.log)
				}
				if name == hostName && res.err != nil {
					t.Errorf("the step failed: %v\n%s", res.err, res.log)
				}
			})
		}
	})

	t.Run("a tampered archive is refused", func(t *testing.T) {
		srv := newReleaseServer(t)
		serveAll(srv)
		data := bytes.Clone(srv.files[base+hostName])
		data[len(data)/2] ^= 1
		srv.serve(base+hostName, data)
		r := newRunner(t, actionDir, srv.URL)
		r.arch = hostArch
		res := r.run(action, inputs)
		sum := sha256.Sum256(data)
		want := "::error title=agc-action::" + r.serverURL + base + hostName + " has SHA-256 " + hex.EncodeToString(sum[:]) +
			", but action.yml of " + tag + " records " + snap.sums[hostName] + ": refusing to run it"
		if exitCode(res.err) != 2 || !strings.Contains(res.log, want) {
			t.Fatalf("exit %d, want 2 and %q:\n%s", exitCode(res.err), want, res.log)
		}
		if strings.Contains(res.log, "running agc-sarif") || res.outputs != "" {
			t.Errorf("the tampered archive ran:\n%s", res.log)
		}
		if _, err := os.Stat(filepath.Join(r.toolCache, "agc-sarif", snap.version, runtime.GOARCH, hostName)); err == nil {
			t.Error("the tampered archive is in the tool cache")
		}
	})

	t.Run("a missing archive stops the step", func(t *testing.T) {
		srv := newReleaseServer(t)
		r := newRunner(t, actionDir, srv.URL)
		r.arch = hostArch
		res := r.run(action, inputs)
		want := "::error title=agc-action::could not download " + srv.URL + base + hostName + ": the release " + tag + " has no archive for this runner (Linux " + hostArch + ")"
		if exitCode(res.err) != 2 || !strings.Contains(res.log, want) {
			t.Fatalf("exit %d, want 2 and %q:\n%s", exitCode(res.err), want, res.log)
		}
	})

	t.Run("a tampered tool cache is fetched again", func(t *testing.T) {
		srv := newReleaseServer(t)
		serveAll(srv)
		r := newRunner(t, actionDir, srv.URL)
		r.arch = hostArch
		cached := filepath.Join(r.toolCache, "agc-sarif", snap.version, runtime.GOARCH, hostName)
		if err := os.MkdirAll(filepath.Dir(cached), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(cached, []byte("not the archive"), 0o644); err != nil {
			t.Fatal(err)
		}
		res := r.run(action, inputs)
		if res.err != nil || res.output("verdict") != "allow" {
			t.Fatalf("the step failed: %v\n%s", res.err, res.log)
		}
		if !strings.Contains(res.log, "::warning title=agc-action::"+cached+" in the tool cache does not match") {
			t.Errorf("no warning about the tool cache:\n%s", res.log)
		}
		if got := srv.take(); len(got) != 1 {
			t.Errorf("requests %v, want the one download", got)
		}
		if got := sha256File(t, cached); got != snap.sums[hostName] {
			t.Errorf("the tool cache still holds SHA-256 %s", got)
		}
	})

	t.Run("Linux with docker runs the pinned image", func(t *testing.T) {
		srv := newReleaseServer(t)
		serveAll(srv)
		r := newRunner(t, actionDir, srv.URL)
		r.arch = hostArch
		argsFile := r.fakeDocker()
		res := r.run(action, inputs)
		if res.err != nil {
			t.Fatalf("the step failed: %v\n%s", res.err, res.log)
		}
		args := dockerArgs(t, argsFile)
		if len(args) < 3 || args[0] != "run" || !slices.Equal(args[len(args)-2:], []string{testImage(), "action"}) {
			t.Fatalf("docker %v, want docker run ... %s action", args, testImage())
		}
		if i := slices.Index(args, "--user"); i < 0 || !strings.Contains(args[i+1], ":") {
			t.Errorf("docker %v does not run as the runner's user", args)
		}
		if i := slices.Index(args, "-e"); i < 0 || !slices.Contains(args, "INPUT_AGC") {
			t.Errorf("docker %v does not pass the inputs", args)
		}
		if got := srv.take(); len(got) != 0 {
			t.Errorf("with docker, the step requested %v", got)
		}
	})

	t.Run("the image input runs that image", func(t *testing.T) {
		r := newRunner(t, actionDir, newReleaseServer(t).URL)
		argsFile := r.fakeDocker()
		res := r.run(action, map[string]string{"agc": "answer.json", "image": "agc-action:ci"})
		if res.err != nil {
			t.Fatalf("the step failed: %v\n%s", res.err, res.log)
		}
		if args := dockerArgs(t, argsFile); !slices.Equal(args[len(args)-2:], []string{"agc-action:ci", "action"}) {
			t.Fatalf("docker %v, want docker run ... agc-action:ci action", args)
		}
	})

	t.Run("the image input needs docker", func(t *testing.T) {
		r := newRunner(t, actionDir, newReleaseServer(t).URL)
		res := r.run(action, map[string]string{"agc": "answer.json", "image": "agc-action:ci"})
		if want := "::error title=agc-action::the image input (agc-action:ci) needs docker, which is not on PATH"; exitCode(res.err) != 2 || !strings.Contains(res.log, want) {
			t.Fatalf("exit %d, want 2 and %q:\n%s", exitCode(res.err), want, res.log)
		}
	})

	t.Run("an unknown architecture is an error", func(t *testing.T) {
		r := newRunner(t, actionDir, newReleaseServer(t).URL)
		r.arch = "ARM"
		res := r.run(action, inputs)
		if want := "::error title=agc-action::agc-sarif " + tag + " has no archive for RUNNER_ARCH ARM (Linux)"; exitCode(res.err) != 2 || !strings.Contains(res.log, want) {
			t.Fatalf("exit %d, want 2 and %q:\n%s", exitCode(res.err), want, res.log)
		}
	})

	// This checkout's action.yml records no release, as on main.
	unreleased := readAction(t, filepath.Join(root, "action.yml"))
	if v := unreleased.Runs.Steps[0].Env["AGC_RELEASE_VERSION"]; v != "" {
		t.Fatalf("action.yml of this checkout records the release %q: only a release commit does", v)
	}

	t.Run("not a release: built from the checkout with Go", func(t *testing.T) {
		srv := newReleaseServer(t)
		r := newRunner(t, clone, srv.URL)
		r.link("go")
		r.fakeDocker() // a docker on PATH is not used without an image
		res := r.run(unreleased, inputs, goEnv(t)...)
		if res.err != nil || res.output("verdict") != "allow" {
			t.Fatalf("the step failed: %v\n%s", res.err, res.log)
		}
		if !strings.Contains(res.log, "agc-action: not a release; building agc-sarif from "+clone) {
			t.Errorf("the log does not say it built from source:\n%s", res.log)
		}
		if got := srv.take(); len(got) != 0 {
			t.Errorf("the step requested %v", got)
		}
	})

	t.Run("not a release, without Go or an image: a clear error", func(t *testing.T) {
		r := newRunner(t, clone, newReleaseServer(t).URL)
		res := r.run(unreleased, inputs)
		if want := "::error title=agc-action::this agc-action is not a release"; exitCode(res.err) != 2 || !strings.Contains(res.log, want) {
			t.Fatalf("exit %d, want 2 and %q:\n%s", exitCode(res.err), want, res.log)
		}
	})
}

func dockerArgs(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("docker was not run: %v", err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// TestReleaseRecordRefuses: scripts/release-record.sh writes a record only
// of exactly the six archives of the version it is given, and an image
// named by digest.
func TestReleaseRecordRefuses(t *testing.T) {
	dir := t.TempDir()
	action := filepath.Join(dir, "action.yml")
	src, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	// Checksums of made-up archives: the script checks their form only.
	sums := func(version string, drop int) string {
		var b strings.Builder
		for i, p := range platforms {
			if i != drop {
				sum := sha256.Sum256([]byte(p.goos + p.goarch))
				fmt.Fprintf(&b, "%x  %s\n", sum, archiveName(version, p.goos, p.goarch, p.ext))
			}
		}
		return b.String()
	}
	for _, c := range []struct {
		name, tag, image, checksums, want string
	}{
		{"an archive missing", "v1.2.3", testImage(), sums("1.2.3", 3), "does not list exactly the six archives of v1.2.3"},
		{"another version's archives", "v1.2.3", testImage(), sums("1.2.4", -1), "does not list exactly the six archives of v1.2.3"},
		{"an archive twice", "v1.2.3", testImage(), sums("1.2.3", -1) + strings.SplitAfter(sums("1.2.3", -1), "\n")[0], "does not list exactly the six archives"},
		{"no SHA-256", "v1.2.3", testImage(), strings.Replace(sums("1.2.3", -1), "  ", "0  ", 1), "has no SHA-256"},
		{"an image by tag", "v1.2.3", "ghcr.io/agcgate/agc-action:v1", sums("1.2.3", -1), "is not NAME@sha256:DIGEST"},
		{"a version without v", "1.2.3", testImage(), sums("1.2.3", -1), "is not vMAJOR.MINOR.PATCH"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := os.WriteFile(action, src, 0o644); err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(dir, "checksums.txt")
			if err := os.WriteFile(file, []byte(c.checksums), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("./scripts/release-record.sh", c.tag, c.image, file, action)
			cmd.Dir = root
			out, err := cmd.CombinedOutput()
			if exitCode(err) != 2 || !strings.Contains(string(out), c.want) {
				t.Errorf("exit %d, want 2 and %q:\n%s", exitCode(err), c.want, out)
			}
			if got, _ := os.ReadFile(action); !bytes.Equal(got, src) {
				t.Error("action.yml was changed")
			}
		})
	}
	// And the same script accepts well-formed input, so the cases above
	// fail for their own reasons.
	if err := os.WriteFile(filepath.Join(dir, "checksums.txt"), []byte(sums("1.2.3", -1)), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("./scripts/release-record.sh", "v1.2.3", testImage(), filepath.Join(dir, "checksums.txt"), action)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("a good record: %v\n%s", err, out)
	}
	if env := readAction(t, action).Runs.Steps[0].Env; env["AGC_RELEASE_VERSION"] != "v1.2.3" || env["AGC_RELEASE_SHA256"] != sums("1.2.3", -1) {
		t.Errorf("the record reads %q and %q", env["AGC_RELEASE_VERSION"], env["AGC_RELEASE_SHA256"])
	}
}
