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

// goldenLogs are the logs whose reading is kept as goldens: every corpus
// log and every SARIF fixture (the hostile ones among them).
func goldenLogs(t *testing.T) []string {
	fix, err := filepath.Glob(filepath.Join(sariftest.RepoRoot(t), "fixtures", "sarif", "*.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	return append(corpusFiles(t), fix...)
}

// readGolden is what reading a log gives, as one JSON document: its
// responses as agc.Encode writes them, its lints (pointer and message) in
// order, and its error.
type readGolden struct {
	Responses []jsontext.Value `json:"responses"`
	Lints     []string         `json:"lints"`
	Error     string           `json:"error,omitempty"`
}

// readAsGolden reads data as the sarif format does (ReadLog, then ToAGC)
// and writes the outcome as readGolden.
func readAsGolden(t *testing.T, name string, data []byte) []byte {
	t.Helper()
	g := readGolden{Responses: []jsontext.Value{}, Lints: []string{}}
	log, lints, err := sarif.ReadLog(bytes.NewReader(data), name, sarif.ReadOptions{Root: "/src"})
	if err != nil {
		g.Error = err.Error()
	} else {
		rs, more := sarif.ToAGC(log, sarif.ToAGCOptions{FailLevel: "warning"})
		lints = append(lints, more...)
		for _, r := range rs {
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
	for _, path := range goldenLogs(t) {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got := readAsGolden(t, name, data)
			golden.Check(t, filepath.Join("testdata", "corpus", strings.TrimSuffix(name, ".sarif")+".json"), got, *update)
		})
	}
}

// TestCorpusStreamedIsGolden writes each log that has one run to a file
// with StreamAGC and compares the file with the golden's response, byte
// for byte, and its lints with the golden's.
func TestCorpusStreamedIsGolden(t *testing.T) {
	for _, path := range goldenLogs(t) {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("testdata", "corpus", strings.TrimSuffix(name, ".sarif")+".json"))
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
			_, lints, ok, err := sarif.StreamAGC(f, data, name, sarif.ReadOptions{Root: "/src"}, sarif.ToAGCOptions{FailLevel: "warning"})
			if err != nil || !ok {
				t.Skipf("not streamed (ok %v, err %v)", ok, err)
			}
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
}
