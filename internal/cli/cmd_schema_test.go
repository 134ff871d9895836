package cli

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/schema"
)

// schemaCmd runs runSchema with buffers.
func schemaCmd(out *bytes.Buffer, args ...string) (code int, stderr string) {
	var errb bytes.Buffer
	e := &Env{Stdin: strings.NewReader(""), Stdout: out, Stderr: &errb,
		Getenv: func(string) string { return "" }, Version: "test"}
	return runSchema(e, args), errb.String()
}

func TestSchemaPrintsTheEmbeddedSchema(t *testing.T) {
	var out bytes.Buffer
	code, errOut := schemaCmd(&out)
	if code != ExitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !bytes.Equal(out.Bytes(), schema.JSON()) {
		t.Error("output differs from schema.JSON()")
	}
	if !bytes.Contains(out.Bytes(), []byte(`"$id": "`+schema.ID+`"`)) {
		t.Errorf("output lacks the $id %s", schema.ID)
	}
}

func TestSchemaUsage(t *testing.T) {
	tests := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"extra"}, ExitUsage, `takes no arguments, got "extra"`},
		{[]string{"-"}, ExitUsage, `takes no arguments, got "-"`},
		{[]string{"--format", "json"}, ExitUsage, "agc-sarif schema: unknown flag --format\nrun 'agc-sarif help schema' for usage\n"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var out bytes.Buffer
			code, errOut := schemaCmd(&out, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d", code, tt.code)
			}
			if !strings.Contains(errOut, tt.stderr) {
				t.Errorf("stderr %q lacks %q", errOut, tt.stderr)
			}
			if out.Len() != 0 {
				t.Errorf("printed %d bytes to stdout on a usage error", out.Len())
			}
		})
	}
	var out bytes.Buffer
	if code, errOut := schemaCmd(&out, "-h"); code != ExitOK || errOut != "" || !strings.HasPrefix(out.String(), "usage: agc-sarif schema") {
		t.Errorf("-h: exit %d, stdout %q, stderr %q; want 0 and the usage on stdout", code, out.String(), errOut)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestSchemaWriteError(t *testing.T) {
	var errb bytes.Buffer
	e := &Env{Stdin: strings.NewReader(""), Stdout: failingWriter{}, Stderr: &errb,
		Getenv: func(string) string { return "" }}
	if code := runSchema(e, nil); code == ExitOK {
		t.Error("exit 0 although stdout could not be written")
	}
	if !strings.Contains(errb.String(), "disk full") {
		t.Errorf("stderr %q does not name the write error", errb.String())
	}
}
