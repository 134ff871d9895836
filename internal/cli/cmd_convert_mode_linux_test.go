//go:build linux

package cli

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestConvertOutputMode: convert -o gives the output the mode
// os.WriteFile(…, 0o644) would, on the streamed path (a SARIF log to AGC,
// sarif.Read writing to it) as on the buffered one (AGC to SARIF): an existing
// file keeps its mode (0600 stays private), a new one is 0644 less the
// umask.
func TestConvertOutputMode(t *testing.T) {
	root := t.TempDir()
	log := filepath.Join(root, "one-run.sarif")
	if err := os.WriteFile(log, []byte(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"results":[`+
		`{"ruleId":"R","level":"error","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.go"},"region":{"startLine":3}}}]}]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	tests := []struct {
		name, in string
		existing fs.FileMode // 0: no file before
		want     fs.FileMode
	}{
		{"streamed existing 0600", log, 0o600, 0o600},
		{"streamed existing 0664", log, 0o664, 0o664},
		{"streamed new", log, 0, 0o640},
		{"buffered existing 0600", convertAGC, 0o600, 0o600},
		{"buffered new", convertAGC, 0, 0o640},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.json")
			if tt.existing != 0 {
				if err := os.WriteFile(out, []byte("old"), 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(out, tt.existing); err != nil {
					t.Fatal(err)
				}
			}
			if code, _, stderr := convertCmd(nil, "", "--source-root", root, "-o", out, tt.in); code != ExitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			st, err := os.Stat(out)
			if err != nil {
				t.Fatal(err)
			}
			if got := st.Mode().Perm(); got != tt.want {
				t.Errorf("mode %04o, want %04o", got, tt.want)
			}
		})
	}
}
