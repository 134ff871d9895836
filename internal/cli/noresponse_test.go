package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoResponseIsAnError is issue 11, case 7, as the attack: a gate that
// answered nothing ([] , an empty JSON Lines file, an empty file) must not
// pass. Every command that reads AGC says the input holds no response,
// names the file and the place, and exits as the README's table says: 1
// for validate and render (the answer breaks the contract), 2 for convert
// and github (an input that cannot be converted or posted).
func TestNoResponseIsAnError(t *testing.T) {
	dir := t.TempDir()
	inputs := map[string]string{"array.json": "[]\n", "spaced.json": " [ \n ] ", "empty.jsonl": "", "blank-lines.jsonl": "\n\n\n", "empty.json": ""}
	cmds := []struct {
		args []string
		code int
	}{
		{[]string{"validate"}, ExitFail},
		{[]string{"validate", "--chain"}, ExitFail},
		{[]string{"validate", "--format", "json"}, ExitFail},
		{[]string{"render"}, ExitFail},
		{[]string{"render", "--format", "markdown"}, ExitFail},
		{[]string{"convert"}, ExitUsage},
		{[]string{"convert", "--from", "agc", "--to", "sarif"}, ExitUsage},
		{[]string{"convert", "--to", "text"}, ExitUsage},
		{[]string{"github", "--dry-run", "--repo", "o/r", "--sha", "abc"}, ExitUsage},
	}
	for name, data := range inputs {
		file := filepath.Join(dir, name)
		if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, c := range cmds {
			t.Run(name+"/"+strings.Join(c.args, " "), func(t *testing.T) {
				code, out, errs := run(t, "", append(c.args, file)...)
				if code != c.code {
					t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.code, out, errs)
				}
				msg := out + errs
				if c.args[len(c.args)-1] == "json" {
					var vs []struct{ File, Rule, Message string }
					if err := json.Unmarshal([]byte(out), &vs); err != nil || len(vs) != 1 || vs[0].File != file || vs[0].Rule != "no-response" {
						t.Fatalf("want one no-response violation of %s: %v\n%s", file, err, out)
					}
					return
				}
				if !strings.Contains(msg, file+":1:") || !strings.Contains(msg, "no AGC response") {
					t.Fatalf("the message must name %s, its place, and say it holds no response:\n%s", file, msg)
				}
			})
		}
	}
}

// TestNoResponseFromStdin is the issue's own command:
// echo '[]' | agc-sarif validate -
func TestNoResponseFromStdin(t *testing.T) {
	code, out, errs := run(t, "[]\n", "validate", "-")
	if code != ExitFail || !strings.Contains(out, "<stdin>:1:1: error: no-response (§3): an empty array holds no AGC response") || strings.Contains(out, "ok:") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	// As a gate, the validator blocks.
	code, out, _ = run(t, "[]\n", "validate", "--format", "agc", "-")
	var r struct{ Verdict string }
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != ExitFail || r.Verdict != "block" {
		t.Fatalf("exit %d, verdict %q (%v)\n%s", code, r.Verdict, err, out)
	}
}

// TestEmptySARIFRunIsAllow: a SARIF run without results is a gate that
// found nothing, a valid allow, unlike an AGC input without a response.
func TestEmptySARIFRunIsAllow(t *testing.T) {
	file := filepath.Join(t.TempDir(), "clean.sarif")
	log := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"ESLint"}},"results":[]}]}`
	if err := os.WriteFile(file, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, "", "convert", "--to", "agc", file)
	var r struct {
		Verdict string
		Gate    struct{ ID string }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != ExitOK || r.Verdict != "allow" || r.Gate.ID != "eslint" {
		t.Fatalf("exit %d, %+v (%v)\n%s%s", code, r, err, out, errs)
	}
	code, out, errs = run(t, out, "validate", "-")
	if code != ExitOK {
		t.Fatalf("the converted allow must validate: exit %d\n%s%s", code, out, errs)
	}
}
