package peertest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/agcgate/agc-action/formats"
	"github.com/agcgate/agc-action/ghapi/ghtest"
)

// TestConvertedRDJSONPlaced: ESLint's SARIF converted to AGC and then to
// rdjson keeps each finding's line and columns, so the real reviewdog
// places it on its line of the pull request. Before, the rdjson had no
// range: reviewdog dropped every finding from the review.
func TestConvertedRDJSONPlaced(t *testing.T) {
	dir := filepath.Join("..", "..", "formats", "testdata", "positions")
	appJS, err := os.ReadFile(filepath.Join(dir, "app.js"))
	if err != nil {
		t.Fatal(err)
	}
	log, err := os.ReadFile(filepath.Join(dir, "eslint.sarif")) // ESLint run in /tmp/dconv/es
	if err != nil {
		t.Fatal(err)
	}
	p := newPR(t, []ghtest.File{{Path: "app.js", Base: "", Head: string(appJS)}})
	reg := formats.Default()
	from, _ := reg.Lookup("sarif")
	rs, _, err := from.Read("eslint.sarif", log, formats.ReadOptions{FS: os.DirFS(p.dir), Root: "/tmp/dconv/es", FailLevel: "error"})
	if err != nil {
		t.Fatal(err)
	}
	to, _ := reg.Lookup("rdjson")
	var rdjson bytes.Buffer
	if err := to.Write(&rdjson, rs, formats.WriteOptions{FS: os.DirFS(p.dir)}); err != nil {
		t.Fatal(err)
	}
	run := p.reviewdog(rdjson.Bytes(), "-f=rdjson")
	if run.code != 0 {
		t.Fatalf("reviewdog: %v", run)
	}
	lines := map[string]int{}
	for _, c := range p.state().lineComments("app.js") {
		for _, m := range []string{"'x' is assigned a value but never used.", "'y' is assigned a value but never used."} {
			if bytes.Contains([]byte(c.Body), []byte(m)) {
				lines[m] = c.Line
			}
		}
	}
	if lines["'x' is assigned a value but never used."] != 1 || lines["'y' is assigned a value but never used."] != 2 {
		t.Errorf("reviewdog placed the findings at %v, want x on line 1 and y on line 2\nrdjson:\n%s\n%v", lines, rdjson.String(), run)
	}
}
