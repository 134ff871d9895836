package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/internal/testkit"
	"github.com/agcgate/agc-action/render"
)

// renderCmd runs runRender with buffers.
func renderCmd(stdin string, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	e := &Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb,
		Getenv: func(string) string { return "" }, Version: "test"}
	code = runRender(e, args)
	return code, out.String(), errb.String()
}

const renderFixture = "../../fixtures/agc/valid/block-patch.json"

func TestRenderGolden(t *testing.T) {
	for _, tt := range []struct{ golden, format string }{
		{"render/block-patch.txt", "text"},
		{"render/block-patch.md", "markdown"},
	} {
		t.Run(tt.format, func(t *testing.T) {
			code, out, errOut := renderCmd("", "--format", tt.format, renderFixture)
			if code != ExitOK || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			golden(t, tt.golden, []byte(out))
		})
	}
}

// TestRenderMatchesPackage checks, for every fixture, that the command
// prints what package render writes, from a file and from standard input.
func TestRenderMatchesPackage(t *testing.T) {
	files := testkit.Glob(t, "../../fixtures/agc/valid/*.json")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		r, err := agc.Decode(file, data, agc.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		var txt, md bytes.Buffer
		if err := render.Text(&txt, r); err != nil {
			t.Fatal(err)
		}
		if err := render.Markdown(&md, r); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			stdin string
			args  []string
			want  string
		}{
			{"", []string{file}, txt.String()},
			{"", []string{"-format=markdown", file}, md.String()},
			{string(data), []string{"--format", "text", "-"}, txt.String()},
		} {
			code, out, errOut := renderCmd(c.stdin, c.args...)
			if code != ExitOK || errOut != "" || out != c.want {
				t.Errorf("render %q: exit %d, stderr %q, output matches package: %v", c.args, code, errOut, out == c.want)
			}
		}
	}
}

func TestRenderBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	syntax := write("syntax.json", "{\"agc\": \"0.1\",\n  \"gate\": }")
	dup := write("dup.json", `{"agc": "0.1", "agc": "0.1"}`)
	array := write("array.json", `[1, 2]`)
	tests := []struct {
		name   string
		stdin  string
		args   []string
		code   int
		stderr string // a part of the message
	}{
		{"syntax error", "", []string{syntax}, ExitFail, syntax + ":2:11: /gate: json.syntax: "},
		{"duplicate key", "", []string{dup}, ExitFail, "json.duplicate-key"},
		{"not an object", "", []string{array}, ExitFail, "a response is a JSON object"},
		{"empty stdin", "", []string{"-"}, ExitFail, "agc-sarif render: <stdin>:1:1: no-response: the input is empty"},
		{"wrong type on stdin", `{"agc": 1}`, []string{"-"}, ExitFail, "<stdin>"},
		{"missing file", "", []string{filepath.Join(dir, "absent.json")}, ExitUsage, "absent.json"},
		{"a directory", "", []string{dir}, ExitUsage, "agc-sarif render: "},
		{"no file", "", nil, ExitUsage, "expected exactly one FILE"},
		{"two files", "", []string{syntax, dup}, ExitUsage, "expected exactly one FILE"},
		{"bad format", "", []string{"--format", "html", syntax}, ExitUsage, "must be one of text, markdown"},
		{"unknown flag", "", []string{"--color", syntax}, ExitUsage, "agc-sarif render: unknown flag --color\nrun 'agc-sarif help render' for usage\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := renderCmd(tt.stdin, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, errOut)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
			if !strings.Contains(errOut, tt.stderr) {
				t.Errorf("stderr %q does not contain %q", errOut, tt.stderr)
			}
			if tt.code == ExitFail && strings.Count(errOut, "\n") != 1 {
				t.Errorf("decode error is not one line: %q", errOut)
			}
		})
	}
}

func TestPrintErrorOneLine(t *testing.T) {
	var stderr bytes.Buffer
	printError(&Env{Stderr: &stderr}, "render", errString("a\nb\r\n\x1b[31mc  d"))
	if got := stderr.String(); got != "agc-sarif render: a b [31mc d\n" {
		t.Errorf("printError wrote %q", got)
	}
}

type errString string

func (e errString) Error() string { return string(e) }

// failWriter fails every write, as a closed pipe does.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, os.ErrClosed }

func TestRenderWriteError(t *testing.T) {
	var errb bytes.Buffer
	e := &Env{Stdin: strings.NewReader(""), Stdout: failWriter{}, Stderr: &errb}
	if code := runRender(e, []string{renderFixture}); code != ExitUsage {
		t.Errorf("exit %d, want %d", code, ExitUsage)
	}
	if !strings.Contains(errb.String(), "write output") {
		t.Errorf("stderr %q", errb.String())
	}
}
