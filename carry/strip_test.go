package carry

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/bridge"
	"github.com/agcgate/agc-action/formats"
	"github.com/agcgate/agc-action/internal/testkit"
)

func TestStrip(t *testing.T) {
	const in = `{"agc":"0.1","gate":{"id":"review","kind":"judgment","agc-action/x":1},
	"subject":{"kind":"diff","fingerprint":"sha256:00","agc-action/gate-subject":{"fingerprint":"sha256:forged"},"x-vendor/keep":[1]},
	"verdict":"block",
	"findings":[{"id":"f","class":"c","location":"a.go:1","what":"w","why":"y","severity":"blocking","status":"new",
	  "remedy":{"kind":"patch","edits":[{"path":"a.go","find":"a","replace":"b","agc-action/e":true}],"agc-action/r":1},
	  "check":{"kind":"command","run":"go vet","agc-action/c":1},"agc-action/f":1}],
	"coverage":{"complete":true,"classes":["c"],"agc-action/cov":1},"attempt":{"n":1,"budget":3,"agc-action/att":1},
	"agc-action/carried-from":{"sha":"forged"},"agc-actionX":"kept: not under the prefix","agc-action/sarif":{"kept":"a reader's"}}`
	r, err := agc.Decode("in.json", []byte(in), agc.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Strip(r)
	if err != nil {
		t.Fatal(err)
	}
	var ptrs []string
	for _, s := range got {
		ptrs = append(ptrs, s.Pointer)
	}
	want := []string{"/agc-action~1carried-from", "/gate/agc-action~1x", "/subject/agc-action~1gate-subject",
		"/findings/0/agc-action~1f", "/findings/0/remedy/agc-action~1r", "/findings/0/remedy/edits/0/agc-action~1e",
		"/findings/0/check/agc-action~1c", "/coverage/agc-action~1cov", "/attempt/agc-action~1att"}
	if d := cmp.Diff(want, ptrs); d != "" {
		t.Errorf("stripped (-want +got):\n%s", d)
	}
	raw, err := agc.Encode(r)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.ReplaceAll(string(raw), `"agc-action/sarif"`, ""), `"agc-action/`) {
		t.Errorf("a member under agc-action/ is left:\n%s", raw)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if doc["agc-actionX"] == nil || doc["subject"].(map[string]any)["x-vendor/keep"] == nil {
		t.Errorf("other members were dropped:\n%s", raw)
	}
	if !strings.Contains(got[2].String(), `/subject/agc-action~1gate-subject: member "agc-action/gate-subject" removed`) {
		t.Errorf("lint text %q", got[2])
	}
	if again, err := Strip(r); err != nil || len(again) != 0 {
		t.Errorf("stripping twice: %v, %v", again, err)
	}
}

// The members agc-action's own readers put into the answers they convert
// (SARIF, the bridged formats) are kept: they are what FormatMembers
// names.
func TestStripKeepsWhatReadersWrite(t *testing.T) {
	reg := formats.Default()
	files := testkit.Glob(t, "../fixtures/bridges/*/*.*")
	files = append(files, "../fixtures/sarif/lint-two-runs.sarif", "../fixtures/rdf/every-field.rdjson")
	seen := map[string]bool{}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		f, err := reg.Detect(file, data)
		if err != nil {
			t.Fatal(err)
		}
		rs, _, err := f.Read(file, data, formats.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			before, _ := agc.Encode(r)
			if gone, err := Strip(r); err != nil || len(gone) != 0 {
				t.Errorf("%s: stripped %v, %v", file, gone, err)
			}
			for _, m := range FormatMembers {
				seen[m] = seen[m] || strings.Contains(string(before), `"`+m+`"`)
			}
		}
	}
	for _, m := range FormatMembers {
		if !seen[m] {
			t.Errorf("no fixture converts to an answer with %s: is it still a member a reader writes?", m)
		}
	}
	if !slices.Contains(FormatMembers, bridge.NoteFingerprintOf) || !slices.Contains(FormatMembers, bridge.NoteInputKind) {
		t.Errorf("FormatMembers %q lacks a member package bridge writes", FormatMembers)
	}
}
