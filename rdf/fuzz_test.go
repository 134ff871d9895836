package rdf

import (
	"os"
	"testing"

	"github.com/agcgate/agc-action/diag"
)

// FuzzReadResult: any input either reads, and then converts and writes
// without panicking, or is an error with a place; never both.
func FuzzReadResult(f *testing.F) {
	f.Add(read(f, everyField))
	f.Add([]byte(`{"diagnostics":[{"message":"m","location":{"path":"src/hello.js","range":{"start":{"line":4,"column":8}}},"suggestions":[{"range":{"start":{"line":4,"column":7},"end":{"line":5,"column":1}},"text":""}]}]}`))
	f.Add([]byte(`{"diagnostics":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, lints, err := ReadResult("in.rdjson", data)
		fuzzCheck(t, data, res, len(lints), err)
	})
}

// FuzzReadLines is FuzzReadResult for rdjsonl.
func FuzzReadLines(f *testing.F) {
	f.Add(read(f, everyLine))
	f.Add([]byte("{\"message\":\"m\",\"severity\":9}\n\n[1]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, lints, err := ReadLines("in.rdjsonl", data)
		fuzzCheck(t, data, res, len(lints), err)
	})
}

func fuzzCheck(t *testing.T, data []byte, res *Result, lints int, err error) {
	if err != nil {
		if res != nil || lints != 0 {
			t.Fatalf("an error with a result: %v", err)
		}
		if _, ok := err.(*diag.Error); !ok {
			t.Fatalf("error %T without a place: %v", err, err)
		}
		return
	}
	rs, _ := ToAGC(res, ToAGCOptions{FS: os.DirFS(fixtureDir), Input: data})
	if err := Write(new(discard), rs, WriteOptions{FS: os.DirFS(fixtureDir)}); err != nil {
		t.Fatalf("write: %v", err)
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
