package sarif

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/diag"
	"github.com/agcgate/agc-action/internal/testkit"
)

// TestRunHeadLintPlaces: a lint about a run's artifacts or
// originalUriBaseIds names the member in the run it belongs to, so that
// its place is the line and column of that member, not the log's start.
// (It said /artifacts/0/location/uri, a pointer that is not in the log.)
func TestRunHeadLintPlaces(t *testing.T) {
	log := `{"version":"2.1.0","runs":[
{"tool":{"driver":{"name":"A"}},"results":[]},
{"tool":{"driver":{"name":"B"}},
 "originalUriBaseIds":{"B~/1":{"uri":7}},
 "artifacts":[{"location":{"uri":9}}],
 "results":[
  {"ruleId":"R","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.go","uriBaseId":"B~/1"}}}]},
  {"ruleId":"R","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"index":0}}}]}]}]}`
	_, lints, err := ReadLog(bytes.NewReader([]byte(log)), "in.sarif", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	diag.LocateLints("in.sarif", []byte(log), lints) // as convert places them
	got := strings.Join(testkit.Strings(lints), "\n")
	for _, want := range []string{
		"in.sarif:4:38: /runs/1/originalUriBaseIds/B~0~11/uri: ",
		"in.sarif:5:34: /runs/1/artifacts/0/location/uri: ",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no lint at %q in:\n%s", want, got)
		}
	}
}
