package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersionSpellings: version, --version and -v print one line, the
// stamped version first.
func TestVersionSpellings(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}, {"-v"}} {
		code, out, errs := run(t, "", args...)
		if code != ExitOK || !strings.HasPrefix(out, "agc-sarif test") || strings.Count(out, "\n") != 1 || errs != "" {
			t.Errorf("%v: exit %d, %q, %q", args, code, out, errs)
		}
	}
	if code, _, _ := run(t, "", "version", "extra"); code != ExitUsage {
		t.Errorf("version extra: exit %d", code)
	}
}

func TestVersionLine(t *testing.T) {
	vcs := []debug.BuildSetting{{Key: "vcs.revision", Value: "0123abc"}, {Key: "vcs.modified", Value: "true"}}
	tests := []struct {
		stamped string
		info    *debug.BuildInfo
		want    string
	}{
		{"v1.2.3", &debug.BuildInfo{Main: debug.Module{Version: "v9.9.9"}}, "agc-sarif v1.2.3"},
		{"dev", &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}, "agc-sarif v1.4.0"},
		{"dev", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs}, "agc-sarif dev (commit 0123abc, modified)"},
		{"", nil, "agc-sarif dev"},
		{"v1.2.3 (abc1234)", &debug.BuildInfo{Settings: vcs}, "agc-sarif v1.2.3 (abc1234)"},
	}
	for _, tt := range tests {
		if got := versionLine(tt.stamped, tt.info); got != tt.want {
			t.Errorf("%q: %q, want %q", tt.stamped, got, tt.want)
		}
	}
}

func TestHelpCommand(t *testing.T) {
	for name := range commands(testEnv(nil, nil, nil, nil)) {
		code, out, errs := run(t, "", "help", name)
		if code != ExitOK || !strings.HasPrefix(out, "usage: agc-sarif "+name) || errs != "" {
			t.Errorf("help %s: exit %d, stdout %q, stderr %q", name, code, out, errs)
		}
	}
	if code, _, errs := run(t, "", "help", "frob"); code != ExitUsage || !strings.Contains(errs, `unknown command "frob"`) {
		t.Errorf("help frob: exit %d, %q", code, errs)
	}
}

// TestCompletion: each script names every command and convert's flags,
// and bash and zsh parse it (when installed).
func TestCompletion(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish"} {
		code, out, errs := run(t, "", "completion", sh)
		if code != ExitOK || errs != "" {
			t.Fatalf("%s: exit %d, %s", sh, code, errs)
		}
		for name := range commands(testEnv(nil, nil, nil, nil)) {
			if !strings.Contains(out, name) {
				t.Errorf("%s: no %s", sh, name)
			}
		}
		for _, f := range []string{"fail-on", "source-root", "gate"} {
			if !strings.Contains(out, f) {
				t.Errorf("%s: no --%s", sh, f)
			}
		}
		bin, err := exec.LookPath(sh)
		if err != nil || sh == "zsh" {
			continue
		}
		script := filepath.Join(t.TempDir(), "c."+sh)
		if err := os.WriteFile(script, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		check := "source " + script + " && complete -p agc-sarif"
		args := []string{"-c", check}
		if sh == "fish" {
			args = []string{"--no-execute", script}
		}
		if b, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
			t.Errorf("%s does not take the script: %v\n%s", sh, err, b)
		}
	}
	if code, _, _ := run(t, "", "completion", "tcsh"); code != ExitUsage {
		t.Errorf("tcsh: exit %d", code)
	}
}
