package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/ghapi/ghtest"
)

// TestFlagsAnywhere: every command takes its flags before and after its
// files (one parser, parseArgs), and "--" ends them. Each case is run
// twice, flags first and flags last, and must give the same exit code and
// standard output; neither run may take a flag for a file or a file for a
// flag. Commands without files (action, carry, fingerprint, schema) are
// run with one stray argument, which both orders must refuse as such
// rather than stop parsing at it.
func TestFlagsAnywhere(t *testing.T) {
	dir := t.TempDir()
	out1 := filepath.Join(dir, "a.json")
	tests := []struct {
		cmd     string
		flags   []string
		files   []string
		tail    []string // after "--", in both orders
		stdin   string
		code    int
		github  bool // run against the GitHub emulator
		sameOut bool
	}{
		{cmd: "validate", flags: []string{"--format", "json"}, files: []string{convertAllow}, code: ExitOK, sameOut: true},
		{cmd: "render", flags: []string{"--format", "markdown"}, files: []string{convertAGC}, code: ExitOK, sameOut: true},
		{cmd: "extract", flags: []string{}, files: []string{"../../fixtures/messages/code-review.md"}, code: ExitOK, sameOut: true},
		{cmd: "convert", flags: []string{"--to", "sarif", "--source-root", dir, "--fail-on", "block"}, files: []string{convertAGC}, code: ExitFail, sameOut: true},
		{cmd: "convert", flags: []string{"-o", out1}, files: []string{convertAllow}, code: ExitOK, sameOut: true},
		{cmd: "github", flags: []string{"--check", "--dry-run", "--poll-delay=1ms"}, files: []string{ghPatch}, code: ExitOK, github: true},
		{cmd: "fingerprint", flags: []string{"--repo", dir, "--rev", "HEAD"}, files: []string{"stray"}, code: ExitUsage, sameOut: true},
		{cmd: "carry", flags: []string{"--previous", convertAGC}, files: []string{"stray"}, code: ExitUsage, sameOut: true},
		{cmd: "schema", flags: []string{}, files: []string{"stray"}, code: ExitUsage, sameOut: true},
		{cmd: "hook", flags: []string{"--event", "PreToolUse"}, files: []string{"claude"}, tail: []string{"--", hookGate}, stdin: hookPayload("PreToolUse", "ls"), code: ExitOK, sameOut: true},
		{cmd: "action", flags: []string{}, files: []string{"stray"}, code: ExitUsage, sameOut: true},
	}
	for _, tt := range tests {
		t.Run(tt.cmd+" "+strings.Join(tt.flags, " "), func(t *testing.T) {
			var outs [2]string
			for i, args := range [][]string{
				append(append(append([]string{tt.cmd}, tt.flags...), tt.files...), tt.tail...),
				append(append(append([]string{tt.cmd}, tt.files...), tt.flags...), tt.tail...),
			} {
				getenv := func(string) string { return "" }
				if tt.github {
					srv, root := ghSetup(t)
					getenv = ghEnv(srv, ghtest.TokenActions, nil)
					args = append(args, "--root", root)
				}
				var so, se bytes.Buffer
				code := Main(testEnv(strings.NewReader(tt.stdin), &so, &se, getenv), args)
				outs[i] = so.String()
				if code != tt.code {
					t.Errorf("%q: exit %d, want %d; stderr:\n%s", args, code, tt.code, se.String())
				}
				for _, bad := range []string{"flag provided but not defined", "no such file or directory", "open -"} {
					if strings.Contains(se.String(), bad) {
						t.Errorf("%q: a flag was taken for a file or the reverse: %s", args, se.String())
					}
				}
				if len(tt.files) > 0 && tt.files[0] == "stray" && !strings.Contains(se.String(), "stray") && !strings.Contains(se.String(), "unexpected arguments") {
					t.Errorf("%q: the stray argument was not named: %s", args, se.String())
				}
			}
			if tt.sameOut && outs[0] != outs[1] {
				t.Errorf("flags first and flags last differ:\n%s\n---\n%s", outs[0], outs[1])
			}
		})
	}
}

// TestDoubleDashEndsFlags: after "--", an argument that looks like a flag
// is a file.
func TestDoubleDashEndsFlags(t *testing.T) {
	code, _, errs := run(t, "", "convert", "--", "-o")
	if code != ExitUsage || !strings.Contains(errs, "-o") || strings.Contains(errs, "flag needs an argument") {
		t.Errorf("exit %d: %s", code, errs)
	}
	code, _, errs = run(t, "", "validate", convertAllow, "--", "--format")
	if code != ExitUsage || !strings.Contains(errs, "--format") {
		t.Errorf("exit %d: %s", code, errs)
	}
}
