package bridge

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/sarif"
	"github.com/agcgate/agc-action/sarif/sariftest"
)

// TestFixturesToSARIF carries every bridged fixture on to SARIF and checks
// it with the SARIF schema, GitHub's limits and the SARIF Multitool.
func TestFixturesToSARIF(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, fx := range allBridged(t) {
		path := fx.path
		var buf bytes.Buffer
		if err := sarif.Write(&buf, []*agc.Response{fx.r}, sarif.WriteOptions{}); err != nil {
			t.Fatalf("%s: to SARIF: %v", path, err)
		}
		out := buf.Bytes()
		if err := sariftest.CheckSchema(t, out); err != nil {
			t.Errorf("%s: SARIF schema: %v", path, err)
		}
		if err := sariftest.CheckLimits(out); err != nil {
			t.Errorf("%s: GitHub limits: %v", path, err)
		}
		name := filepath.Join(dir, fx.src.dir+"-"+strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))+".sarif")
		if err := os.WriteFile(name, out, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	for file, errs := range sariftest.Multitool(t, files) {
		t.Errorf("%s: SARIF Multitool: %s", filepath.Base(file), strings.Join(errs, "; "))
	}
}
