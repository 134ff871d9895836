package sarif_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/internal/testkit"
	"github.com/agcgate/agc-action/sarif"
)

// checkStreamAGC: StreamAGC writes exactly what ReadLog, ToAGC and
// agc.Encode give, with the same lints and verdict, or declines and writes
// nothing. It returns whether it streamed.
func checkStreamAGC(t *testing.T, name string, data []byte, opts sarif.ToAGCOptions) bool {
	t.Helper()
	var out bytes.Buffer
	verdict, lints, ok, err := sarif.StreamAGC(&out, data, name, sarif.ReadOptions{}, opts)
	if err != nil {
		t.Fatalf("%s: StreamAGC: %v", name, err)
	}
	if !ok {
		if out.Len() > 0 {
			t.Errorf("%s: StreamAGC declined but wrote %d bytes", name, out.Len())
		}
		return false
	}
	log, wantLints, err := sarif.ReadLog(bytes.NewReader(data), name, sarif.ReadOptions{})
	if err != nil {
		t.Fatalf("%s: StreamAGC streamed a log ReadLog refuses: %v", name, err)
	}
	rs, more := sarif.ToAGC(log, opts)
	for i := range more {
		more[i].File = name // as formats.ReadSARIFRuns names them
	}
	wantLints = append(wantLints, more...)
	if len(rs) != 1 {
		t.Fatalf("%s: streamed, but ToAGC made %d responses", name, len(rs))
	}
	want, err := agc.Encode(rs[0])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("%s: streamed AGC differs from agc.Encode's (%d vs %d bytes)\n got %.600s\nwant %.600s", name, out.Len(), len(want), out.Bytes(), want)
	}
	// Into a file, which can seek: one reading, the start written again.
	f, err := os.Create(filepath.Join(t.TempDir(), "out.agc.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fileVerdict, fileLints, ok, err := sarif.StreamAGC(f, data, name, sarif.ReadOptions{}, opts)
	if err != nil || !ok {
		t.Fatalf("%s: StreamAGC into a file: %v, %v", name, ok, err)
	}
	if got, err := os.ReadFile(f.Name()); err != nil || !bytes.Equal(got, want) {
		t.Errorf("%s: streamed AGC in a file differs from agc.Encode's (%v)\n got %.600s\nwant %.600s", name, err, got, want)
	}
	if fileVerdict != verdict || !reflect.DeepEqual(fileLints, lints) {
		t.Errorf("%s: into a file, verdict %q and lints %v; into a buffer %q and %v", name, fileVerdict, fileLints, verdict, lints)
	}
	if verdict != rs[0].Verdict {
		t.Errorf("%s: verdict %q, want %q", name, verdict, rs[0].Verdict)
	}
	if len(lints)+len(wantLints) > 0 && !reflect.DeepEqual(lints, wantLints) {
		t.Errorf("%s: lints differ\n got %v\nwant %v", name, lints, wantLints)
	}
	return true
}

// TestStreamAGCIsBuffered: for every log of the shared corpus and of this
// package's tests, and the benchmark's log, the streamed conversion is
// byte for byte the buffered one.
func TestStreamAGCIsBuffered(t *testing.T) {
	files := testkit.Corpus(t)
	files = append(files, testkit.Glob(t, filepath.Join(testkit.RepoRoot(t), "sarif", "testdata", "*.sarif"), filepath.Join(testkit.RepoRoot(t), "fixtures", "sarif", "*.sarif"))...)
	streamed := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, level := range []string{"", "note"} {
			if checkStreamAGC(t, filepath.Base(f), data, sarif.ToAGCOptions{FailLevel: level}) {
				streamed++
			}
		}
	}
	same := `{"ruleId":"R","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.go"},"region":{"startLine":3}}}]}`
	dup := []byte(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"results":[` + same + `,` + same + `,` + same + `]}]}`)
	if !checkStreamAGC(t, "dup.sarif", dup, sarif.ToAGCOptions{}) || !bytes.Contains(dup, []byte("R")) {
		t.Error("a log whose findings share an id is not streamed")
	}
	if !checkStreamAGC(t, "bench.sarif", benchLog(3000, 200), sarif.ToAGCOptions{}) {
		t.Error("the benchmark's log is not streamed")
	}
	t.Logf("%d of %d conversions streamed", streamed, 2*len(files))
	if streamed < len(files)/2 {
		t.Errorf("only %d of %d conversions streamed", streamed, 2*len(files))
	}
}
