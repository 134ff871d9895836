package action

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/formats"
	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/internal/testkit"
	"github.com/agcgate/agc-action/sarif"
)

// The SARIF file is the log sarif.Write writes, byte for byte, and a gate
// answering twice gets a numbered category.
func TestSARIFFile(t *testing.T) {
	var rs []*agc.Response
	for _, f := range []string{"allow-empty.json", "block-patch.json", "escalate-review.json", "repaired-rewrite.json"} {
		rs = append(rs, testkit.Response(t, filepath.Join("../../fixtures/agc/valid", f)))
	}
	root := t.TempDir()
	data, err := os.ReadFile("../../fixtures/sarif/lint-two-runs.sarif")
	if err != nil {
		t.Fatal(err)
	}
	bridged, _, _, err := formats.ReadSARIFRuns("lint-two-runs.sarif", data, formats.ReadOptions{FS: cmdenv.MustSourceFS(root), Root: root})
	if err != nil {
		t.Fatal(err)
	}
	rs = append(rs, bridged...)
	dup := append([]*agc.Response{}, rs[1], rs[1]) // one gate twice: its categories are numbered
	for name, rs := range map[string][]*agc.Response{"distinct gates": rs, "a gate twice": dup, "none": nil} {
		t.Run(name, func(t *testing.T) {
			opt := sarif.WriteOptions{FS: cmdenv.MustSourceFS(root), FindingsOnly: true, Category: "ci"}
			var want bytes.Buffer
			if err := sarif.Write(&want, rs, opt); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "out.sarif")
			if err := writeSARIFFile(path, rs, opt); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want.Bytes()) {
				t.Errorf("the file:\n%s\nsarif.Write:\n%s", got, want.Bytes())
			}
			if name == "a gate twice" {
				if id := "ci/" + rs[0].Gate.ID + "/2/"; !bytes.Contains(got, []byte(`"id":"`+id+`"`)) {
					t.Errorf("a gate twice: no category %s in %s", id, got)
				}
			}
		})
	}
}

// TestSARIFFileErrorLeavesNone: a log over GitHub's limits is an error and
// leaves no half-written file behind for a later step to upload.
func TestSARIFFileErrorLeavesNone(t *testing.T) {
	r := testkit.Response(t, "../../fixtures/agc/valid/block-patch.json")
	big := *r
	big.Gate.ID, big.Findings = "big", nil
	for i := range sarif.MaxResultsPerRun + 1 {
		f := r.Findings[0]
		f.ID = fmt.Sprintf("%s-%d", f.ID, i)
		big.Findings = append(big.Findings, f)
	}
	path := filepath.Join(t.TempDir(), "out.sarif")
	var le *sarif.LimitError
	if err := writeSARIFFile(path, []*agc.Response{r, &big}, sarif.WriteOptions{}); !errors.As(err, &le) || le.Pointer != "/runs/1/results" {
		t.Fatalf("a second run over the limit: %v", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the refused log is left at %s: %v", path, err)
	}
}
