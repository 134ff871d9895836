package sarif

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/internal/testkit"
)

// checkEncodeTo: EncodeTo writes Encode's bytes, or fails with its error.
func checkEncodeTo(t *testing.T, name string, rs []*agc.Response, opts WriteOptions) {
	t.Helper()
	want, wantErr := Encode(rs, opts)
	var got bytes.Buffer
	err := EncodeTo(&got, rs, opts)
	if fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Errorf("%s: EncodeTo: %v, Encode: %v", name, err, wantErr)
	}
	if wantErr == nil && !bytes.Equal(got.Bytes(), want) {
		t.Errorf("%s: one run at a time:\n%s\nall at once:\n%s", name, got.Bytes(), want)
	}
}

// TestEncodeToIsEncode: the log written one run at a time is the log
// Encode writes at once, byte for byte, for every corpus log's AGC and
// every AGC fixture and golden, one by one and all together (where gates
// repeat, their categories are numbered across the log); and a limit a
// run breaks is placed at that run's index in the whole log.
func TestEncodeToIsEncode(t *testing.T) {
	src := fstest.MapFS{"src/store/db.go": {Data: []byte("package store\n\nvar dbUrl = \"postgres://\"\n")}}
	var all []*agc.Response
	eachConverted(t, testkit.Corpus(t), func(f string, _ []byte, rs []*agc.Response) {
		checkEncodeTo(t, f, rs, WriteOptions{FindingsOnly: true, Category: "ci"})
		all = append(all, rs...)
	})
	for _, f := range agcInputs(t) {
		rs := decodeAGC(t, f)
		checkEncodeTo(t, f, rs, WriteOptions{FS: src})
		all = append(all, rs...)
	}
	if len(all) < 20 {
		t.Fatalf("only %d responses", len(all))
	}
	distinct := map[string]*agc.Response{}
	for _, r := range all {
		distinct[r.Gate.ID] = r
	}
	var one []*agc.Response
	for _, r := range distinct {
		one = append(one, r)
		if len(one) == MaxRuns {
			break
		}
	}
	checkEncodeTo(t, "one run a gate", one, WriteOptions{FindingsOnly: true})
	checkEncodeTo(t, "none", nil, WriteOptions{})
	checkEncodeTo(t, "a gate twice", []*agc.Response{one[0], one[1], one[0]}, WriteOptions{Category: "ci"})

	many := directResponse("big")
	for i := range MaxResultsPerRun + 1 {
		many.Findings = append(many.Findings, directFinding(i, fmt.Sprintf("f%d.go", i)))
	}
	rs := []*agc.Response{directResponse("a"), directResponse("b"), many}
	checkEncodeTo(t, "over a limit in the third run", rs, WriteOptions{})
	var le *LimitError
	if err := EncodeTo(&bytes.Buffer{}, rs, WriteOptions{}); !errors.As(err, &le) || le.Pointer != "/runs/2/results" {
		t.Errorf("over a limit in the third run: %v", err)
	}
	var runs []*agc.Response
	for i := range MaxRuns + 1 {
		runs = append(runs, directResponse(fmt.Sprint("g", i)))
	}
	checkEncodeTo(t, "too many runs", runs, WriteOptions{})
}

// TestEncodeToWriteError: a failing writer's error is EncodeTo's.
func TestEncodeToWriteError(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3} {
		w := &failingWriter{after: n}
		if err := EncodeTo(w, []*agc.Response{directResponse("a"), directResponse("b")}, WriteOptions{}); !errors.Is(err, errWrite) {
			t.Errorf("failing at write %d: %v", n, err)
		}
	}
}

var errWrite = errors.New("disk full")

type failingWriter struct{ after int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.after == 0 {
		return 0, errWrite
	}
	w.after--
	return len(p), nil
}
