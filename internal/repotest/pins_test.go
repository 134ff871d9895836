package repotest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/internal/testkit"
	"go.yaml.in/yaml/v4"
)

var (
	usesLine = regexp.MustCompile(`^\s*(?:-\s+)?uses:\s*(.*)$`)
	// owner/repo[/path]@<full commit> # vX.Y.Z
	pinnedUse = regexp.MustCompile(`^([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)(?:/[^@\s]+)?@([0-9a-f]{40}) # (v[0-9]+\.[0-9]+\.[0-9]+)$`)
)

// pins lists the third-party actions a workflow uses, as action: "sha #
// version", and returns an error for any not pinned by a full commit with
// its version in a comment.
func pins(name string, workflow []byte) (map[string]string, error) {
	got := map[string]string{}
	var bad []string
	for i, line := range strings.Split(string(workflow), "\n") {
		m := usesLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		use := strings.TrimSpace(m[1])
		if strings.HasPrefix(use, "./") {
			continue // this repository's own action
		}
		p := pinnedUse.FindStringSubmatch(use)
		if p == nil {
			bad = append(bad, fmt.Sprintf("%s:%d: %s is not pinned as OWNER/REPO@<commit> # vX.Y.Z", name, i+1, use))
			continue
		}
		pin := p[2] + " # " + p[3]
		if prev, ok := got[p[1]]; ok && prev != pin {
			bad = append(bad, fmt.Sprintf("%s:%d: %s is pinned to %s here and to %s above", name, i+1, p[1], pin, prev))
		}
		got[p[1]] = pin
	}
	if len(bad) > 0 {
		return got, fmt.Errorf("%s", strings.Join(bad, "\n"))
	}
	return got, nil
}

// TestActionsArePinned: every third-party action in the workflows is
// pinned by commit SHA with its version beside it, and each action to one
// commit across all of them.
func TestActionsArePinned(t *testing.T) {
	all := map[string]string{}
	files := testkit.Glob(t, filepath.Join(root, ".github/workflows/*.yml"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := pins(filepath.Base(f), data)
		if err != nil {
			t.Error(err)
		}
		for action, pin := range got {
			if prev, ok := all[action]; ok && prev != pin {
				t.Errorf("%s pins %s to %s, another workflow to %s", filepath.Base(f), action, pin, prev)
			}
			all[action] = pin
		}
	}
	for _, want := range []string{"actions/checkout", "actions/attest-build-provenance", "docker/build-push-action"} {
		if _, ok := all[want]; !ok {
			t.Errorf("no workflow uses %s: the test reads the wrong files?", want)
		}
	}
}

// TestPinsRejectsTags proves TestActionsArePinned can fail.
func TestPinsRejectsTags(t *testing.T) {
	for _, wf := range []string{
		"steps:\n  - uses: actions/checkout@v4\n",
		"steps:\n  - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683\n", // no version
		"steps:\n  - uses: actions/checkout@11bd71901bbe5b16 # v4.2.2\n",                // short SHA
		"steps:\n  - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2\n" + // two commits
			"  - uses: actions/checkout@08eba0b27e820071cde6df949e0beb9ba4906955 # v4.3.0\n",
	} {
		if _, err := pins("bad.yml", []byte(wf)); err == nil {
			t.Errorf("accepted:\n%s", wf)
		}
	}
	if _, err := pins("good.yml", []byte("steps:\n  - uses: ./\n  - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2\n")); err != nil {
		t.Error(err)
	}
}

// TestDependabot: Dependabot watches the Go modules, the actions, the test
// tools' npm packages and the Dockerfile, each where it lives.
func TestDependabot(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(root, ".github/dependabot.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Version int `yaml:"version"`
		Updates []struct {
			Ecosystem string `yaml:"package-ecosystem"`
			Directory string `yaml:"directory"`
			Schedule  struct {
				Interval string `yaml:"interval"`
			} `yaml:"schedule"`
		} `yaml:"updates"`
	}
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.Version != 2 {
		t.Errorf("version %d, want 2", cfg.Version)
	}
	// ecosystem: the directory it is given and what must be there
	want := map[string][2]string{
		"gomod":          {"/", "go.mod"},
		"github-actions": {"/", ".github/workflows"},
		"npm":            {"/tools", "package-lock.json"},
		"docker":         {"/", "Dockerfile"},
	}
	var seen []string
	for _, u := range cfg.Updates {
		w, ok := want[u.Ecosystem]
		if !ok {
			t.Errorf("unexpected ecosystem %s", u.Ecosystem)
			continue
		}
		if u.Directory != w[0] {
			t.Errorf("%s watches %s, want %s", u.Ecosystem, u.Directory, w[0])
		}
		if _, err := os.Stat(filepath.Join(root, w[0], w[1])); err != nil {
			t.Errorf("%s: %v", u.Ecosystem, err)
		}
		if u.Schedule.Interval == "" {
			t.Errorf("%s has no schedule", u.Ecosystem)
		}
		seen = append(seen, u.Ecosystem)
	}
	slices.Sort(seen)
	if w := []string{"docker", "github-actions", "gomod", "npm"}; !slices.Equal(seen, w) {
		t.Errorf("ecosystems %v, want %v", seen, w)
	}
}
