package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func extractCall(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
	code = runExtract(e, args)
	return code, out.String(), errb.String()
}

func extractFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRunExtract(t *testing.T) {
	msg := extractFile(t, "review.md", "Looks fine.\r\n\r\n```agc\r\n{\"agc\": \"0.1\"}\r\n```\r\n")
	several := extractFile(t, "several.md", "```agc\n{}\n```\n~~~agc\n{}\n~~~\n")
	tests := []struct {
		name       string
		stdin      string
		args       []string
		code       int
		stdout     string
		stderr     string // exact, unless prefix is set
		stderrPart bool
	}{
		{"file", "", []string{msg}, ExitOK, "{\"agc\": \"0.1\"}\n", "", false},
		{"stdin", "```agc\n{}\n```\n", nil, ExitOK, "{}\n", "", false},
		{"dash is stdin", "```agc\n{}\n```\n", []string{"-"}, ExitOK, "{}\n", "", false},
		{"lint", "```agc\n{}\n```\nBye.\n", nil, ExitOK, "{}\n",
			"lint: <stdin>:4: prose after the agc block at line 1; the block should end the message\n", false},
		{"empty block", "```agc\n```\n", nil, ExitOK, "", "lint: <stdin>:1: the agc block is empty\n", false},
		{"none", "no block here\n", nil, ExitFail, "",
			"agc-sarif extract: <stdin>:1: no fenced code block with info string \"agc\": a judgment agent ends its final message with exactly one\n", false},
		{"several", "", []string{several}, ExitFail, "",
			"agc-sarif extract: " + several + ":1: 2 fenced agc blocks, opened at lines 1, 4: the message must end with exactly one\n", false},
		{"unterminated", "x\n```agc\n{}\n", nil, ExitFail, "",
			"agc-sarif extract: <stdin>:2: the agc block opened here is not closed before the end of the message: end it with a fence of the same character, at least as long as the opening one\n", false},
		{"hidden in another block", "```text\n```agc\n{}\n```\n", nil, ExitFail, "",
			"agc-sarif extract: <stdin>:2: no fenced code block", true},
		{"missing file", "", []string{filepath.Join(t.TempDir(), "nope.md")}, ExitUsage, "", "agc-sarif extract: open ", true},
		{"two files", "", []string{msg, msg}, ExitUsage, "", "agc-sarif extract: one FILE at most, got 2\nrun 'agc-sarif help extract' for usage\n", false},
		{"unknown flag", "", []string{"-x"}, ExitUsage, "", "agc-sarif extract: unknown flag --x\nrun 'agc-sarif help extract' for usage\n", false},
		{"help", "", []string{"-h"}, ExitOK, "usage: agc-sarif extract [FILE]\n", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := extractCall(t, tc.stdin, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.code, stderr)
			}
			if stdout != tc.stdout {
				t.Errorf("stdout %q, want %q", stdout, tc.stdout)
			}
			if tc.stderrPart && !strings.Contains(stderr, tc.stderr) || !tc.stderrPart && stderr != tc.stderr {
				t.Errorf("stderr %q, want %q", stderr, tc.stderr)
			}
		})
	}
}

func TestRunExtractTooLarge(t *testing.T) {
	var out, errb bytes.Buffer
	e := &Env{Stdin: endless{}, Stdout: &out, Stderr: &errb}
	if code := runExtract(e, nil); code != ExitUsage {
		t.Errorf("exit %d, want %d", code, ExitUsage)
	}
	want := "agc-sarif extract: <stdin>: larger than 8 MiB, the most an agent's message may be\n"
	if errb.String() != want || out.Len() != 0 {
		t.Errorf("stderr %q stdout %q, want stderr %q", errb.String(), out.String(), want)
	}
}

// endless reads as an unending run of 'x'.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}
