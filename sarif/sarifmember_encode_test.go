package sarif

import (
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"
)

// xMemberV2 is what the hand-written encoders must agree with.
func xMemberV2[T any](v T) []byte {
	b, err := json.Marshal(struct {
		X T `json:"agc-action/sarif"`
	}{v})
	if err != nil {
		return nil
	}
	return b
}

func xRecords() []xRecord {
	off, zero := 7, 0
	return []xRecord{
		{},
		{Level: "warning"},
		{RuleID: "r/1", Message: "a \"quoted\" <b>&\u2028 message\n\x01", Kind: "pass", Level: "none", URI: "src/a b.go",
			Region:  &xRegion{StartLine: 3, StartColumn: 2, EndLine: 4, EndColumn: 9, Snippet: "x := 1"},
			Logical: "pkg.F", Suppressed: true, BaselineState: "absent",
			Partial: map[string]string{"b": "2", "a": "1", "primaryLocationLineHash": "abc:1"}, Fingerprints: map[string]string{}},
		{Level: "error", Region: &xRegion{CharOffset: &zero}, Fixes: []xFix{}},
		{Level: "note", Region: &xRegion{CharOffset: &off, CharLength: 3},
			Fixes: []xFix{{}, {Description: "d", Changes: []xChange{{URI: "u"}, {URI: "v", Replacements: []xReplacement{{}, {Deleted: xRegion{StartLine: 1, Snippet: "s"}, Inserted: "i"}}}}}}},
		{Level: "warning", Message: "bad \xff UTF-8"},
	}
}

// TestXMember: the hand-written encoders write what json.Marshal writes
// for the struct tags, map order aside, and fail where it fails.
func TestXMember(t *testing.T) {
	same := func(got, want []byte) {
		t.Helper()
		if (got == nil) != (want == nil) {
			t.Fatalf("got %s, want %s", got, want)
		}
		if got == nil {
			return
		}
		var g, w any
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatalf("%s: %v", got, err)
		}
		if err := json.Unmarshal(want, &w); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(w, g); d != "" {
			t.Errorf("%s\n(-json.Marshal +ours):\n%s", got, d)
		}
	}
	recs := xRecords()
	for i := range recs {
		same(xRecordMember(&recs[i]), xMemberV2(recs[i]))
		if recs[i].Partial == nil {
			// Without maps the bytes are the same too.
			if got, want := string(xRecordMember(&recs[i])), string(xMemberV2(recs[i])); got != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		}
	}
	for _, x := range []xResponse{{}, {Results: []xRecord{}}, {Results: recs[:5]}, {Results: recs}} {
		same(xResponseMember(&x), xMemberV2(x))
	}
}

// TestHelpMember: withHelpMember adds the member json.Marshal writes for
// {HelpMember: uri}, and nothing when it cannot be written.
func TestHelpMember(t *testing.T) {
	for _, uri := range []string{"https://example.com/r?a=1&b=<2>", "a \"b\" \\ \n\u2028 é", "bad \xff"} {
		want, err := json.Marshal(map[string]string{HelpMember: uri})
		for _, members := range []string{"{}", `{"x":1}`} {
			got := withHelpMember([]byte(members), &Result{Rule: &Rule{HelpURI: uri}})
			switch {
			case err != nil && string(got) != members:
				t.Errorf("%q: got %s, want %s unchanged", uri, got, members)
			case err == nil && members == "{}" && string(got) != string(want):
				t.Errorf("%q: got %s, want %s", uri, got, want)
			case err == nil && members != "{}" && string(got) != members[:len(members)-1]+","+string(want[1:]):
				t.Errorf("%q: got %s, want %s", uri, got, want)
			}
		}
	}
}
