package sarif

import (
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/agcgate/agc-action/internal/testkit"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// streamRunCases are runs whose member order, kinds and contents stress
// streamRun: results before the rules and base URIs they need, members
// that sort before and after results, results that are not an array.
var streamRunCases = []string{
	`{"results":[{"ruleIndex":0,"message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.go","uriBaseId":"SRC"}}}]}],` +
		`"tool":{"driver":{"name":"T","rules":[{"id":"R1","shortDescription":{"text":"s"}}]}},"originalUriBaseIds":{"SRC":{"uri":"file:///w/"}}}`,
	`{"tool":{"driver":{"name":"T"}},"results":[{"ruleId":"R","message":{"text":"x"}},7,null],"properties":{"p":1},"columnKind":"utf16CodeUnits"}`,
	`{"tool":{"driver":{"name":"T"}},"results":[]}`,
	`{"tool":{"driver":{"name":"T"}},"results":{"not":"an array"}}`,
	`{"tool":{"driver":{"name":"T"}},"results":null}`,
	`{"tool":{"driver":{"name":"T"}}}`,
	`{}`,
	`{"tool":{"driver":{"name":"T"}},"results":[{"ruleId":"R","ruleId":"S","message":{"text":"dup"}}]}`,
	`{"tool":{"driver":{"name":"T"}},"results":[{"ruleId":"R","message":{"text":"a \"quoted\" \\ \u00e9 \ud83d\ude00 [x] {y}"}}],"results":[]}`,
	`{"tool":{"driver":{"name":"T"}},"results":[{"ruleId":"R","level":"ERROR","message":{"text":"\u00e9"},"partialFingerprints":{"primaryLocationLineHash":"ab:1"}}],"zzz":[1.5e300,-0,1e-7]}`,
}

// checkStreamRun: streamRun gives exactly the run and lints that the
// buffered way (decodeRun, then run) gives, or leaves v to it.
func checkStreamRun(t *testing.T, v []byte) (streamed bool) {
	t.Helper()
	bufRd, strRd := &treeReader{}, &reader{}
	got, ok := strRd.streamRun(v, "/runs/0", map[string]string{}, ReadOptions{Root: "/w"})
	tree, fp, err := decodeRun(v, map[string]string{})
	m := asObj(tree)
	switch {
	case err != nil && ok:
		t.Fatalf("streamRun read what decodeRun refuses (%v): %.200s", err, v)
	case !ok || m == nil:
		return false
	}
	want := bufRd.run(m, "/runs/0", fp, ReadOptions{Root: "/w"})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("streamed run differs from the buffered one for %.200s\n got %+v\nwant %+v", v, got, want)
	}
	if !slices.Equal(strRd.lints.List(), bufRd.lints) {
		t.Errorf("streamed lints differ for %.200s\n got %v\nwant %v", v, strRd.lints.List(), bufRd.lints)
	}
	return true
}

// TestStreamRunIsBuffered: every run of every corpus log (and the cases
// above) reads the same streamed as buffered: the same results, rules,
// fingerprint and lints, in the same order.
func TestStreamRunIsBuffered(t *testing.T) {
	for _, c := range streamRunCases {
		checkStreamRun(t, []byte(c))
	}
	if !checkStreamRun(t, []byte(streamRunCases[0])) {
		t.Error("a run whose results come first is not streamed")
	}
	files := testkit.Corpus(t)
	runs, streamed := 0, 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var log struct {
			Runs []jsontext.Value `json:"runs"`
		}
		if err := json.Unmarshal(data, &log, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)); err != nil {
			continue // not a log the reader gets this far with
		}
		for _, run := range log.Runs {
			runs++
			if checkStreamRun(t, run) {
				streamed++
			}
		}
	}
	t.Logf("%d of %d corpus runs are streamed", streamed, runs)
	if runs == 0 || streamed < runs*3/4 {
		t.Errorf("only %d of %d corpus runs are streamed", streamed, runs)
	}
}

// FuzzStreamRun: for any JSON value, streamRun agrees with the buffered
// way or declines.
func FuzzStreamRun(f *testing.F) {
	for _, c := range streamRunCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !jsontext.Value(data).IsValid(jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)) {
			return
		}
		checkStreamRun(t, data)
	})
}
