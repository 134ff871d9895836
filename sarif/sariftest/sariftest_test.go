package sariftest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bad breaks GitHub's rules (no location, no region, an absolute URI) and,
// in its second copy, the schema (an invalid level, which Multitool does
// not report).
const bad = `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x", "rules": [{"id": "r1"}]}}, "results": [
 {"ruleId": "r1", "level": "error", "message": {"text": "No location."}},
 {"ruleId": "r1", "level": "error", "message": {"text": "No region."}, "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a.go"}}}]},
 {"ruleId": "r1", "level": "error", "message": {"text": "Absolute."}, "locations": [{"physicalLocation": {"artifactLocation": {"uri": "file:///etc/x.go"}, "region": {"startLine": 1}}}]}
]}]}`

// TestChecksCanFail: each of the three checks rejects what it must.
func TestChecksCanFail(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "bad.sarif")
	if err := os.WriteFile(file, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	errs := Multitool(t, []string{file})
	all := strings.Join(errs[file], "\n")
	for _, rule := range []string{"GH1001", "GH1003", "GH1006", "GH2012"} {
		if !strings.Contains(all, rule+":") {
			t.Errorf("Multitool did not report %s for %s; got:\n%s", rule, file, all)
		}
	}
	if err := CheckSchema(t, []byte(strings.Replace(bad, `"level": "error"`, `"level": "fatal"`, 1))); err == nil {
		t.Error("the schema accepted level \"fatal\"")
	}
	if err := CheckSchema(t, []byte(bad)); err != nil {
		t.Errorf("the schema rejected a schema-valid log: %v", err)
	}
	runs := `{"version":"2.1.0","runs":[` + strings.Repeat(`{"tool":{"driver":{"name":"x"}},"results":[]},`, 20) + `{"tool":{"driver":{"name":"x"}},"results":[]}]}`
	if err := CheckLimits([]byte(runs)); err == nil || !strings.Contains(err.Error(), "21 runs") {
		t.Errorf("CheckLimits = %v, want 21 runs refused", err)
	}
}
