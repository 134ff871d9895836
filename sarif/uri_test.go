package sarif_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/sarif"
)

// TestArtifactPaths: URIs in all the forms real tools write resolve to a
// path relative to the source root when they can.
func TestArtifactPaths(t *testing.T) {
	tests := []struct {
		name     string
		loc      string // the artifactLocation
		path     string
		relative bool
	}{
		{"relative", `{"uri": "src/a.go"}`, "src/a.go", true},
		{"dot segments", `{"uri": "./src/../src/a.go"}`, "src/a.go", true},
		{"undefined base id", `{"uri": "src/a.go", "uriBaseId": "%SRCROOT%"}`, "src/a.go", true},
		{"defined base id under root", `{"uri": "a.go", "uriBaseId": "SRC"}`, "src/a.go", true},
		{"nested base ids", `{"uri": "a.go", "uriBaseId": "PKG"}`, "src/pkg/a.go", true},
		{"percent-encoded", `{"uri": "src/my%20file.go"}`, "src/my file.go", true},
		{"file URI under root", `{"uri": "file:///work/project/src/a.go"}`, "src/a.go", true},
		{"four slashes", `{"uri": "file:////work/project/src/a.go"}`, "src/a.go", true},
		{"localhost", `{"uri": "file://localhost/work/project/src/a.go"}`, "src/a.go", true},
		{"bare absolute under root", `{"uri": "/work/project/src/a.go"}`, "src/a.go", true},
		{"absolute outside root", `{"uri": "/etc/passwd"}`, "/etc/passwd", false},
		{"windows drive", `{"uri": "file:///C:/src/a.go"}`, "C:/src/a.go", false},
		{"https", `{"uri": "https://example.com/a.go"}`, "https://example.com/a.go", false},
		{"leaves the root", `{"uri": "../../a.go"}`, "../../a.go", false},
		{"artifact index", `{"index": 1}`, "lib/b.go", true},
		{"backslashes", `{"uri": "src\\a.go"}`, "src/a.go", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := fmt.Sprintf(`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "t"}},
				"originalUriBaseIds": {"SRC": {"uri": "file:///work/project/src/"}, "PKG": {"uri": "pkg/", "uriBaseId": "SRC"}},
				"artifacts": [{"location": {"uri": "x.go"}}, {"location": {"uri": "lib/b.go"}}],
				"results": [{"ruleId": "r", "message": {"text": "m"}, "locations": [{"physicalLocation": {"artifactLocation": %s}}]}]}]}`, tt.loc)
			log, _, err := sarif.ReadLog(strings.NewReader(doc), "t.sarif", sarif.ReadOptions{Root: "/work/project"})
			if err != nil {
				t.Fatal(err)
			}
			loc := log.Runs[0].Results[0].Loc
			if loc == nil || loc.Path != tt.path || loc.Relative != tt.relative {
				t.Errorf("got %+v, want path %q relative %v", loc, tt.path, tt.relative)
			}
		})
	}
}

// TestLevelsAndMessages: §3.27.10 levels and §3.11 message strings.
func TestLevelsAndMessages(t *testing.T) {
	doc := `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "t",
		"globalMessageStrings": {"g": {"text": "Global {0}."}},
		"rules": [{"id": "E", "defaultConfiguration": {"level": "error"}, "messageStrings": {"m": {"text": "Value {0} of {1}, {{literal}}."}}},
		          {"id": "N"}]},
		"extensions": [{"name": "ext", "rules": [{"id": "X", "defaultConfiguration": {"level": "note"}}]}]},
		"results": [
		  {"ruleId": "E", "message": {"id": "m", "arguments": ["a", "b"]}},
		  {"ruleId": "N", "message": {"text": "t"}},
		  {"ruleId": "E", "level": "note", "message": {"text": "t"}},
		  {"ruleId": "E", "kind": "pass", "message": {"text": "t"}},
		  {"rule": {"id": "X", "toolComponent": {"index": 0}}, "message": {"id": "g", "arguments": ["z"]}},
		  {"ruleId": "X", "message": {"text": "t"}},
		  {"ruleId": "E/sub", "message": {"text": "t"}}
		]}]}`
	log, lints, err := sarif.ReadLog(strings.NewReader(doc), "t.sarif", sarif.ReadOptions{})
	if err != nil || len(lints) > 0 {
		t.Fatalf("%v %v", err, lints)
	}
	want := []struct{ rule, level, msg string }{
		{"E", "error", "Value a of b, {literal}."},
		{"N", "warning", "t"},
		{"E", "note", "t"},
		{"E", "none", "t"},
		{"X", "note", "Global z."},
		{"X", "note", "t"},
		{"E/sub", "error", "t"},
	}
	for i, w := range want {
		r := log.Runs[0].Results[i]
		if r.RuleID != w.rule || r.Level != w.level || r.Message != w.msg {
			t.Errorf("result %d: %s %s %q, want %s %s %q", i, r.RuleID, r.Level, r.Message, w.rule, w.level, w.msg)
		}
	}
	rs, _ := sarif.ToAGC(log, sarif.ToAGCOptions{FailLevel: "note"})
	if n := len(rs[0].Findings); n != 6 {
		t.Errorf("%d findings, want 6 (the pass result is not one)", n)
	}
	for _, f := range rs[0].Findings {
		if f.Severity != "blocking" {
			t.Errorf("%s at fail-level note is %s", f.Class, f.Severity)
		}
	}
}
