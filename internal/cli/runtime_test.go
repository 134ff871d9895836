package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// recordRuntime is a Runtime that records what a command asks of it, and
// whether it restored each setting, instead of changing the process.
type recordRuntime struct{ calls []string }

func (r *recordRuntime) GCPercent(p int) func() {
	r.calls = append(r.calls, fmt.Sprintf("gc %d", p))
	return func() { r.calls = append(r.calls, fmt.Sprintf("restore gc %d", p)) }
}

func (r *recordRuntime) MemoryLimit(n int64) func() {
	r.calls = append(r.calls, fmt.Sprintf("limit %d", n))
	return func() { r.calls = append(r.calls, fmt.Sprintf("restore limit %d", n)) }
}

// TestCommandsTuneThroughEnv: the commands that read a whole tree raise
// the collector's target, and the streamed conversion lowers the memory
// limit, each through Env.Runtime and restored when the command ends;
// the others tune nothing. Nothing is set on the process itself.
func TestCommandsTuneThroughEnv(t *testing.T) {
	r := fpRepo(t)
	out := filepath.Join(t.TempDir(), "out.json")
	data, err := os.ReadFile(convertSARIF)
	if err != nil {
		t.Fatal(err)
	}
	size := len(data)
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"fingerprint", []string{"fingerprint", "--repo", r.Dir, "--scope", "src/**"}, []string{"gc 400", "restore gc 400"}},
		{"carry", []string{"carry", "--previous", "-", "--previous-rev", "HEAD", "--repo", r.Dir}, []string{"gc 400", "restore gc 400"}},
		{"convert streamed", []string{"convert", "-o", out, convertSARIF},
			[]string{fmt.Sprintf("limit %d", streamMemory(size)), fmt.Sprintf("restore limit %d", streamMemory(size))}},
		{"convert buffered", []string{"convert", convertSARIF}, nil},
		{"validate", []string{"validate", convertAGC}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recordRuntime{}
			var stdout, stderr bytes.Buffer
			Main(&Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Runtime: rec}, tt.args)
			if !reflect.DeepEqual(rec.calls, tt.want) {
				t.Errorf("runtime calls %q, want %q (stderr %s)", rec.calls, tt.want, stderr.String())
			}
		})
	}
}

// TestNilRuntimeTunesNothing: an Env without a Runtime (tests, other
// embedders) runs every tuning command without one.
func TestNilRuntimeTunesNothing(t *testing.T) {
	r := fpRepo(t)
	out := filepath.Join(t.TempDir(), "out.json")
	for _, args := range [][]string{
		{"fingerprint", "--repo", r.Dir, "--scope", "src/**"},
		{"convert", "-o", out, convertSARIF},
	} {
		var stdout, stderr bytes.Buffer
		if code := Main(&Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr}, args); code != ExitOK {
			t.Errorf("%v: exit %d: %s", args, code, stderr.String())
		}
	}
}
