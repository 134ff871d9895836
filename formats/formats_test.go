package formats

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/agcgate/agc-action/internal/testkit"
)

func TestDefault(t *testing.T) {
	r := Default()
	if got := strings.Join(r.Inputs(), ","); got != "agc,sarif,agent-protocol,gate-receipt,fourgate,rdjson,rdjsonl,diff" {
		t.Errorf("inputs %s", got)
	}
	if got := strings.Join(r.Outputs(), ","); got != "agc,sarif,text,markdown,claude-pre-tool-use,claude-post-tool-use,codex-pre-tool-use,codex-post-tool-use,gemini-before-tool,gemini-after-tool,copilot-pre-tool-use,copilot-post-tool-use,rdjson" {
		t.Errorf("outputs %s", got)
	}
}

func TestAddRefuses(t *testing.T) {
	read := func(string, []byte, ReadOptions) ([]*agc.Response, []diag.Lint, error) { return nil, nil, nil }
	write := func(io.Writer, []*agc.Response, WriteOptions) error { return nil }
	tests := []struct {
		name string
		f    Format
		want string
	}{
		{"duplicate", Format{Name: "sarif", Read: read}, `format "sarif" is registered twice`},
		{"auto", Format{Name: "auto", Read: read}, `format name "auto" is reserved`},
		{"empty", Format{Name: "", Write: write}, `format name "" is reserved`},
		{"nothing", Format{Name: "x"}, `format "x" neither reads nor writes`},
		{"detect without read", Format{Name: "y", Write: write, Detect: func([]byte) bool { return true }}, `format "y" detects inputs it cannot read`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Default()
			if err := r.Add(tt.f); err == nil || err.Error() != tt.want {
				t.Errorf("Add = %v, want %q", err, tt.want)
			}
		})
	}
	r := Default()
	if err := r.Add(Format{Name: "extra", Read: read, Detect: func(b []byte) bool { return strings.HasPrefix(string(b), "EXTRA") }}); err != nil {
		t.Fatal(err)
	}
	if f, err := r.Detect("x", []byte("EXTRA stuff")); err != nil || f.Name != "extra" {
		t.Errorf("a format added later is detected: %v %v", f.Name, err)
	}
}

func TestDetect(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"agc object", `{"agc":"0.1"}`, "agc"},
		{"agc array", ` [ {"gate":{}, "agc":"0.1"} ]`, "agc"},
		{"agc lines", "{\"agc\":\"0.1\"}\n{\"agc\":\"0.1\"}\n", "agc"},
		{"sarif", `{"$schema":"x","version":"2.1.0","runs":[]}`, "sarif"},
		{"sarif without runs", `{"version":"2.1.0","$schema":"https://json.schemastore.org/sarif-2.1.0.json"}`, "sarif"},
		{"sarif runs first", `{"runs":[{"tool":{}}]}`, "sarif"},
		{"truncated sarif", `{"version":"2.1.0","runs":[{"tool":`, "sarif"},
		{"neither", `{"results":[]}`, ""},
		{"not json", `hello`, ""},
		{"empty", `   `, ""},
		{"array of numbers", `[1,2]`, ""},
	}
	r := Default()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := r.Detect("in", []byte(tt.data))
			if tt.want == "" {
				if err == nil {
					t.Fatalf("detected %s", f.Name)
				}
				if !strings.HasPrefix(err.Error(), "in: ") {
					t.Errorf("error does not name the input: %v", err)
				}
				return
			}
			if err != nil || f.Name != tt.want {
				t.Errorf("Detect = %q, %v; want %s", f.Name, err, tt.want)
			}
		})
	}
}

// TestDetectCorpus: every corpus file is detected as SARIF and every
// valid AGC fixture as AGC.
func TestDetectCorpus(t *testing.T) {
	r := Default()
	check := func(glob, want string) {
		files := testkit.Glob(t, glob)
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if f, err := r.Detect(file, data); err != nil || f.Name != want {
				t.Errorf("%s: detected %q (%v), want %s", file, f.Name, err, want)
			}
		}
	}
	check("/work/shared/sarif-corpus/*.sarif", "sarif")
	check("../fixtures/agc/valid/*.json", "agc")
}

// FuzzDetect: detection never panics and picks at most one format.
func FuzzDetect(f *testing.F) {
	f.Add([]byte(`{"agc":"0.1"}`))
	f.Add([]byte(`{"version":"2.1.0","runs":[]}`))
	f.Add([]byte(`[{"agc":`))
	r := Default()
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = r.Detect("fuzz", data)
	})
}
