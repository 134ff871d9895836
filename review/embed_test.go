package review

import (
	"strings"
	"testing"

	"github.com/google/go-github/v62/github"
)

func TestReadBackRejectsTampering(t *testing.T) {
	raw := []byte(`{"agc":"0.1"}`)
	text := EmbedResponse(raw)
	run := &github.CheckRun{ID: github.Int64(1), Output: &github.CheckRunOutput{Text: github.String(strings.Replace(text, "sha256=", "sha256=0", 1))}}
	if _, err := ReadBackRaw(run); err == nil || !strings.Contains(err.Error(), "sha256") {
		t.Errorf("tampered checksum: err = %v", err)
	}
	run.Output.Text = github.String("no response here")
	if _, err := ReadBackRaw(run); err != ErrNotEmbedded {
		t.Errorf("err = %v, want ErrNotEmbedded", err)
	}
}
