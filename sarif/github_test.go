package sarif

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
)

// TestFindingsOnlyForGitHub: for code scanning, results that are not
// findings (a pass, an accepted suppression) are left out, since GitHub
// ignores kind and suppressions and would raise them as alerts; the
// category prefix replaces "agc".
func TestFindingsOnlyForGitHub(t *testing.T) {
	log := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"lint","rules":[{"id":"r1"}]}},"results":[
	  {"ruleId":"r1","level":"error","message":{"text":"fails"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.go"},"region":{"startLine":1}}}]},
	  {"ruleId":"r1","kind":"pass","message":{"text":"passes"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"b.go"},"region":{"startLine":1}}}]},
	  {"ruleId":"r1","level":"error","message":{"text":"suppressed"},"suppressions":[{"kind":"inSource"}],"locations":[{"physicalLocation":{"artifactLocation":{"uri":"c.go"},"region":{"startLine":1}}}]}
	]}]}`
	l, _, err := ReadLog(strings.NewReader(log), "t.sarif", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rs, _ := ToAGC(l, ToAGCOptions{})
	if len(rs) != 1 || len(rs[0].Findings) != 1 {
		t.Fatalf("want one response with one finding, got %d responses", len(rs))
	}
	all := writtenLog(t, rs, WriteOptions{})
	if n := len(all.Runs[0].Results); n != 3 {
		t.Fatalf("round trip keeps every result: got %d, want 3", n)
	}
	gh := writtenLog(t, rs, WriteOptions{FindingsOnly: true, Category: "gates"})
	if n := len(gh.Runs[0].Results); n != 1 {
		t.Fatalf("for GitHub only the finding: got %d results, want 1", n)
	}
	if id := gh.Runs[0].AutomationDetails.ID; id != "gates/lint/" {
		t.Errorf("category %q, want gates/lint/", id)
	}
}

// writtenLog is what Write writes of rs, decoded.
func writtenLog(t *testing.T, rs []*agc.Response, opts WriteOptions) (log struct {
	Runs []struct {
		Results           []json.RawMessage `json:"results"`
		AutomationDetails struct {
			ID string `json:"id"`
		} `json:"automationDetails"`
	} `json:"runs"`
}) {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, rs, opts); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	return log
}
