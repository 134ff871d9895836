package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The error paths a new user met in the first hour (issue 24, item 7):
// each prints its error on stderr alone, short, naming what was wrong and
// what was probably meant; help goes to stdout.

// TestUnreadableFileIsNotOK: a file that cannot be read is an error on
// stderr (exit 2); stdout says nothing is valid ("ok: 0 file(s) valid"
// stood beside the error).
func TestUnreadableFileIsNotOK(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.json")
	code, out, errs := run(t, "", "validate", missing)
	if code != ExitUsage || out != "" || !strings.Contains(errs, missing) {
		t.Errorf("exit %d, stdout %q, stderr %q; want 2, nothing on stdout, the error naming %s", code, out, errs, missing)
	}
	// With a valid file beside it, stdout does not say "ok" either.
	good := filepath.Join(t.TempDir(), "good.json")
	data, err := os.ReadFile("../../fixtures/agc/rules/pass.schema.base.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(good, data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = run(t, "", "validate", good, missing)
	if code != ExitUsage || strings.HasPrefix(out, "ok") || !strings.Contains(out, "1 file(s) valid, 1 not read") {
		t.Errorf("exit %d, stdout %q; want 2 and \"1 file(s) valid, 1 not read\"", code, out)
	}
}

// TestDirectoryNamedOnce: a directory given as a file names its path
// once ("read /x/bad: read /x/bad: is a directory").
func TestDirectoryNamedOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bad")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"validate", dir}, {"render", dir}, {"extract", dir}, {"convert", dir}} {
		code, _, errs := run(t, "", args...)
		if code != ExitUsage || strings.Count(errs, dir) != 1 || !strings.Contains(errs, "is a directory") {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %s named once", args[0], code, errs, dir)
		}
	}
}

// TestHelpGoesToStdout: help asked for is output (agc-sarif help convert
// | less); only errors go to stderr.
func TestHelpGoesToStdout(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"--help"}, {"-h"}, {"help", "convert"}, {"convert", "-h"}, {"validate", "--help"}, {"help", "version"}} {
		code, out, errs := run(t, "", args...)
		if code != ExitOK || errs != "" || !strings.Contains(out, "usage: agc-sarif") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 0 and the usage on stdout", args, code, out, errs)
		}
	}
	code, out, errs := run(t, "", "help", "convert")
	if code != ExitOK || !strings.Contains(out, "-to") {
		t.Errorf("help convert: exit %d, stdout %q, stderr %q; want convert's flags", code, out, errs)
	}
}

// TestUsageErrorsAreShort: an unknown flag names the nearest one and
// points at the command's help in one line, not 25 lines of usage.
func TestUsageErrorsAreShort(t *testing.T) {
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"convert", "--form", "sarif", "x"}, []string{"agc-sarif convert: unknown flag --form; did you mean --from?", "run 'agc-sarif help convert' for usage"}},
		{[]string{"validate", "--chian", "x"}, []string{"agc-sarif validate: unknown flag --chian; did you mean --chain?", "run 'agc-sarif help validate' for usage"}},
		{[]string{"validate", "--zzzzzzzz", "x"}, []string{"agc-sarif validate: unknown flag --zzzzzzzz", "run 'agc-sarif help validate' for usage"}},
		{[]string{"validate"}, []string{"agc-sarif validate: no input files (use - for standard input)", "run 'agc-sarif help validate' for usage"}},
		{[]string{"validate", "--format", "yaml", "x"}, []string{`agc-sarif validate: invalid value "yaml" for flag --format: must be one of text, json, agc, sarif`, "run 'agc-sarif help validate' for usage"}},
	}
	for _, c := range cases {
		code, out, errs := run(t, "", c.args...)
		lines := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
		if code != ExitUsage || out != "" || strings.Join(lines, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%v: exit %d, stdout %q, stderr:\n%s\nwant 2 and:\n%s", c.args, code, out, errs, strings.Join(c.want, "\n"))
		}
	}
}

// TestUnknownCommandIsShort: an unknown command names the nearest one and
// points at the list, in two lines.
func TestUnknownCommandIsShort(t *testing.T) {
	for _, args := range [][]string{{"valdiate", "x.json"}, {"help", "valdiate"}} {
		code, out, errs := run(t, "", args...)
		want := "agc-sarif: unknown command \"valdiate\"; did you mean validate?\nrun 'agc-sarif help' for the commands\n"
		if code != ExitUsage || out != "" || errs != want {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and %q", args, code, out, errs, want)
		}
	}
}

// TestFingerprintScopeSelectingNothing: a scope that selects no entry is
// an error that suggests the pattern probably meant (validate/ and
// validate mean the directory: validate/**); it printed a hash, exit 0.
func TestFingerprintScopeSelectingNothing(t *testing.T) {
	r := fpRepo(t)
	cases := []struct {
		scope []string
		want  string
	}{
		{[]string{"src/"}, `did you mean "src/**"?`},
		{[]string{"src"}, `did you mean "src/**"?`},
		{[]string{"nowhere/**"}, "selects no entry"},
		{[]string{"src", "!src/a.go"}, `did you mean "src/**"?`},
	}
	for _, c := range cases {
		args := []string{"fingerprint", "--repo", r.Dir}
		for _, s := range c.scope {
			args = append(args, "--scope", s)
		}
		code, out, errs := run(t, "", args...)
		if code != ExitUsage || out != "" || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and one line with %q", c.scope, code, out, errs, c.want)
		}
	}
	// The scope a deletion emptied is still fingerprinted when asked.
	code, out, errs := run(t, "", "fingerprint", "--repo", r.Dir, "--scope", "nowhere/**", "--allow-empty")
	if code != ExitOK || !strings.HasPrefix(out, "sha256:") {
		t.Errorf("--allow-empty: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestExtractNamesTheJSONBlock: a message whose answer is fenced ```json
// (or ```JSON, or with no info string) is refused naming that block, not
// only "no fenced code block with info string agc".
func TestExtractNamesTheJSONBlock(t *testing.T) {
	const answer = "{\"agc\": \"0.1\", \"gate\": {\"id\": \"code-review\"}, \"verdict\": \"allow\"}\n"
	for _, info := range []string{"json", "JSON", ""} {
		msg := "Done.\n\n```" + info + "\n" + answer + "```\n"
		code, out, errs := run(t, msg, "extract")
		want := "agc-sarif extract: <stdin>:3: found a fenced block " + infoName(info) + " at line 3; an AGC answer is fenced ```agc"
		if code != ExitFail || out != "" || !strings.Contains(errs, want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 1 and %q", info, code, out, errs, want)
		}
	}
	// A json block that is no AGC answer is not named.
	code, _, errs := run(t, "```json\n{\"a\": 1}\n```\n", "extract")
	if code != ExitFail || strings.Contains(errs, "found a fenced block") {
		t.Errorf("a plain json block: exit %d, stderr %q", code, errs)
	}
}

func infoName(info string) string {
	if info == "" {
		return "with no info string"
	}
	return "with info string " + info
}
