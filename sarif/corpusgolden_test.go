package sarif_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/agcgate/agc-action/internal/golden"
	"github.com/agcgate/agc-action/sarif"
	"github.com/agcgate/agc-action/sarif/sariftest"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
)

// eachGoldenLog runs check as a subtest for each log whose reading is kept
// as a golden (every corpus log and every SARIF fixture, the hostile ones
// among them), with the log's name, its bytes and its golden's path.
func eachGoldenLog(t *testing.T, check func(t *testing.T, name string, data []byte, goldenPath string)) {
	fix, err := filepath.Glob(filepath.Join(sariftest.RepoRoot(t), "fixtures", "sarif", "*.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range append(corpusFiles(t), fix...) {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			check(t, name, data, filepath.Join("testdata", "corpus", strings.TrimSuffix(name, ".sarif")+".json"))
		})
	}
}

// readGolden is what reading a log gives, as one JSON document: its
// responses as agc.Encode writes them, its lints (pointer and message) in
// order, and its error.
type readGolden struct {
	Responses []jsontext.Value `json:"responses"`
	Lints     []string         `json:"lints"`
	Error     string           `json:"error,omitempty"`
}

// readAsGolden reads data as the sarif format does (Read) and writes the
// outcome as readGolden.
func readAsGolden(t *testing.T, name string, data []byte, root string) []byte {
	t.Helper()
	g := readGolden{Responses: []jsontext.Value{}, Lints: []string{}}
	var lints []diag.Lint
	got, err := sarif.Read(data, name, sarif.Options{Root: root, FailLevel: "warning"})
	if err != nil {
		g.Error = err.Error()
	} else {
		lints = got.Lints
		for _, r := range got.Responses {
			text, err := agc.Encode(r)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			g.Responses = append(g.Responses, text)
		}
	}
	g.Lints = lintLines(lints)
	out, err := json.Marshal(g, jsontext.WithIndent("  "))
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

func lintLines(lints []diag.Lint) []string {
	out := make([]string, 0, len(lints))
	for _, l := range lints {
		s := l.Pointer + ": " + l.Message
		if l.More > 0 {
			s += " (+" + strconv.Itoa(l.More) + ")"
		}
		out = append(out, s)
	}
	return out
}

// TestCorpusGolden reads every corpus log and SARIF fixture and compares
// the responses, lints and error with testdata/corpus/, by meaning. The
// goldens were written by the reader before issue 25 made one reader of
// two, so they hold its behaviour.
func TestCorpusGolden(t *testing.T) {
	eachGoldenLog(t, func(t *testing.T, name string, data []byte, goldenPath string) {
		golden.Check(t, goldenPath, readAsGolden(t, name, data, "/src"), *update)
	})
}

// TestCorpusStreamedIsGolden writes each log that has one run to a file
// (Options.Out) and compares the file with the golden's response, by
// meaning, and with agc.Encode's text of it, byte for byte; and its lints
// with the golden's.
func TestCorpusStreamedIsGolden(t *testing.T) {
	eachGoldenLog(t, func(t *testing.T, name string, data []byte, goldenPath string) {
		want, err := os.ReadFile(goldenPath)
		if err != nil {
			t.Fatal(err)
		}
		var g readGolden
		if err := json.Unmarshal(want, &g); err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(filepath.Join(t.TempDir(), "out.agc.json"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		conv, err := sarif.Read(data, name, sarif.Options{Root: "/src", FailLevel: "warning", Out: f})
		if err != nil || !conv.Written {
			t.Skipf("not written (%v): the golden has the error or several runs", err)
		}
		lints := conv.Lints
		got, err := os.ReadFile(f.Name())
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Responses) != 1 {
			t.Fatalf("streamed a log of %d responses", len(g.Responses))
		}
		if d, err := golden.JSONDiff(g.Responses[0], got); d != "" || err != nil {
			t.Errorf("streamed output differs from the golden's response (%v):\n%s", err, d)
		}
		// The bytes are agc.Encode's.
		r, err := agc.Decode(name, got, agc.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if again, err := agc.Encode(r); err != nil || !bytes.Equal(again, got) {
			t.Errorf("streamed output is not agc.Encode's text (%v)", err)
		}
		if d := cmp.Diff(g.Lints, lintLines(lints)); d != "" {
			t.Errorf("lints (-golden +streamed):\n%s", d)
		}
	})
}

// runCases are runs that stress the reader: member order, kinds, and what
// is not read as written (duplicate names, invalid UTF-8, lone surrogate
// escapes, numbers out of range, deep nesting, numbers in other forms).
var runCases = map[string]string{
	"results first": `{"results":[{"ruleIndex":0,"message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.go","uriBaseId":"SRC"}}}]}],` +
		`"tool":{"driver":{"name":"T","rules":[{"id":"R1","shortDescription":{"text":"s"}}]}},"originalUriBaseIds":{"SRC":{"uri":"file:///w/"}}}`,
	"results not objects":             `{"tool":{"driver":{"name":"T"}},"results":[{"ruleId":"R","message":{"text":"x"}},7,null],"properties":{"p":1},"columnKind":"utf16CodeUnits"}`,
	"no results":                      `{"tool":{"driver":{"name":"T"}},"results":[]}`,
	"results an object":               `{"tool":{"driver":{"name":"T"}},"results":{"not":"an array"}}`,
	"results null":                    `{"tool":{"driver":{"name":"T"}},"results":null}`,
	"results absent":                  `{"tool":{"driver":{"name":"T"}}}`,
	"empty run":                       `{}`,
	"duplicate rule id":               `{"tool":{"driver":{"name":"T"}},"results":[{"ruleId":"R","ruleId":"S","message":{"text":"dup"}}]}`,
	"results twice":                   `{"tool":{"driver":{"name":"T"}},"results":[{"ruleId":"R","message":{"text":"a \"quoted\" \\ \u00e9 \ud83d\ude00 [x] {y}"}}],"results":[]}`,
	"results twice, last":             `{"tool":{"driver":{"name":"T"}},"results":[],"results":[{"ruleId":"R","message":{"text":"second"}}]}`,
	"numbers after results":           `{"tool":{"driver":{"name":"T"}},"results":[{"ruleId":"R","level":"ERROR","message":{"text":"\u00e9"},"partialFingerprints":{"primaryLocationLineHash":"ab:1"}}],"zzz":[1.5e300,-0,1e-7]}`,
	"duplicate names":                 `{"tool":{"driver":{"name":"T","name":"U","rules":[{"id":"A"},{"id":"B","id":"C"}]}},"results":[{"ruleId":"C","ruleId":"B","message":{"text":"one","text":"two"},"properties":{"a":1,"a":2,"b":{"c":1,"c":[3]}}}]}`,
	"duplicate message ids":           `{"tool":{"driver":{"name":"T","globalMessageStrings":{"m":{"text":"x {0}"},"m":{"text":"y {0}"}}}},"results":[{"ruleId":"R","message":{"id":"m","arguments":["a"]}}]}`,
	"invalid UTF-8":                   "{\"tool\":{\"driver\":{\"name\":\"T\xff\"}},\"results\":[{\"ruleId\":\"R\xc3\",\"message\":{\"text\":\"m\xff\xfe!\"},\"properties\":{\"k\xff\":\"v\xe2\x82\"}}]}",
	"invalid UTF-8 in a path":         "{\"tool\":{\"driver\":{\"name\":\"T\"}},\"results\":[{\"ruleId\":\"R\",\"message\":{\"text\":\"m\"},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":\"src/\xffa.go\"},\"region\":{\"startLine\":2}}}]}]}",
	"lone surrogate":                  `{"tool":{"driver":{"name":"T"}},"results":[{"ruleId":"R","message":{"text":"a\ud800b\udc00c\ud800\u0041"}}]}`,
	"number out of range":             `{"tool":{"driver":{"name":"T"}},"results":[{"ruleId":"R","message":{"text":"m"},"rank":1e400}]}`,
	"number out of range in the head": `{"tool":{"driver":{"name":"T","properties":{"x":-1e999}}},"results":[{"ruleId":"R","message":{"text":"m"}}]}`,
	"deep properties":                 `{"tool":{"driver":{"name":"T"}},"results":[{"ruleId":"R","message":{"text":"m"},"properties":{"deep":` + strings.Repeat("[", 1100) + strings.Repeat("]", 1100) + `}}]}`,
	"deep head":                       `{"tool":{"driver":{"name":"T"}},"x":` + strings.Repeat("[", 1100) + strings.Repeat("]", 1100) + `,"results":[{"ruleId":"R","message":{"text":"m"}}]}`,
	"numbers in other forms":          `{"tool":{"driver":{"name":"T"}},"x":{"a":1,"a":2},"results":[{"ruleId":"R","message":{"text":"<&>"},"properties":{"n":[1.50,1E2,-0,12345678901234567890]},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.go"},"region":{"startLine":1E1,"startColumn":2.50,"endLine":"7"}}}]}]}`,
	"numbers in other forms, exact":   `{"tool":{"driver":{"name":"T"}},"results":[{"ruleId":"R","message":{"text":"<&>"},"properties":{"n":[1.50,1E2,-0,12345678901234567890]},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.go"},"region":{"startLine":1E1,"startColumn":2.50,"endLine":"7"}}}]}]}`,
	"strings for numbers":             `{"tool":{"driver":{"name":1.5e3,"version":true}},"results":[{"ruleId":12,"message":{"text":-0.0}}]}`,
}

// TestRunCasesGolden reads each of runCases as the one run of a log and
// compares what it gives with testdata/runcases.json, by meaning. The
// golden was written before issue 25 by the reader of that time (which
// read what its one pass declined through encoding/json).
func TestRunCasesGolden(t *testing.T) {
	got := map[string]jsontext.Value{}
	for name, run := range runCases {
		got[name] = readAsGolden(t, name, []byte(`{"version":"2.1.0","runs":[`+run+`]}`), "/w")
	}
	out, err := json.Marshal(got, jsontext.WithIndent("  "), json.Deterministic(true))
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "runcases.json"), append(out, '\n'), *update)
}
