package cli

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// location is the place and pointer a diagnostic line starts with, after
// the command's own prefix.
var location = regexp.MustCompile(`bad\.json(:\d+)*: (/[^ :]*: )?`)

// TestSameLocationEverywhere: the same bad file gets the same location
// text from every command that reads AGC.
func TestSameLocationEverywhere(t *testing.T) {
	const valid = `{
  "agc": "0.1",
  "gate": {"id": "g", "kind": "deterministic", "version": "1"},
  "subject": {"kind": "commit", "fingerprint": "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
  "verdict": "allow",
  "coverage": {"complete": true, "classes": []},
  "attempt": {"n": 1, "budget": 1}
}
`
	inputs := []struct {
		name, data, want string
		skip             string // a command that reports another problem first
	}{
		{"syntax error", strings.Replace(valid, `"version": "1"}`, `"version": "1",}`, 1), "bad.json:3:62: /gate: ", ""},
		{"schema violation", strings.Replace(valid, `"n": 1`, `"n": "one"`, 1), "bad.json:7:20: /attempt/n: ", ""},
		{"duplicate member", strings.Replace(valid, `"verdict": "allow"`, `"verdict": "allow", "verdict": "block"`, 1), "bad.json:5:23: /verdict: ", ""},
		{"not an object", "\n  7\n", "bad.json:2:3: ", "convert"}, // detection looks for an object or array
	}
	commands := map[string][]string{
		"validate":       {"validate", "bad.json"},
		"render":         {"render", "bad.json"},
		"convert":        {"convert", "bad.json"},
		"convert as agc": {"convert", "--from", "agc", "--to", "text", "bad.json"},
		"github":         {"github", "--repo", "o/r", "--pr", "1", "--sha", "0123abc", "--dry-run", "--check", "bad.json"},
	}
	t.Chdir(t.TempDir())
	for _, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			if err := os.WriteFile("bad.json", []byte(in.data), 0o644); err != nil {
				t.Fatal(err)
			}
			for name, args := range commands {
				if name == in.skip {
					continue
				}
				code, out, errs := run(t, "", args...)
				got := location.FindString(out + errs)
				if code == ExitOK || got != in.want {
					t.Errorf("%s: exit %d, location %q, want %q; output:\n%s%s", name, code, got, in.want, out, errs)
				}
			}
		})
	}
}
