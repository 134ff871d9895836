package sarif_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/sarif"
	"github.com/agcgate/agc-action/sarif/sariftest"
	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"
)

// validAGCFixtures lists every valid AGC fixture of the repository.
func validAGCFixtures(t *testing.T) []string {
	t.Helper()
	root := filepath.Join(sariftest.RepoRoot(t), "fixtures", "agc")
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".json") && strings.Contains(filepath.ToSlash(p), "/valid/") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("no valid AGC fixtures under %s (%v)", root, err)
	}
	// Responses that exercise what the fixtures do not: unknown members
	// everywhere, every remedy kind, carried, regressed, absolute paths and
	// fields, two runs of one gate.
	return append(files, filepath.Join("testdata", "agc", "rich.json"))
}

// sourcesForFixtures is a source root with the files the fixtures name, so
// that lines resolve from patch find texts and symbols.
var sourcesForFixtures = fstest.MapFS{
	"src/store/db.go": {Data: []byte("package store\n\nvar dbUrl = \"postgres://\"\n\nfunc Open() (*DB, error) {\n\tdb := connect(dbUrl)\n\tdb.Ping()\n\treturn db, nil\n}\n")},
}

// TestRoundTripAGC: AGC → SARIF → AGC gives back the same response, with
// and without sources, and the SARIF passes the schema and the limits.
func TestRoundTripAGC(t *testing.T) {
	for _, file := range validAGCFixtures(t) {
		for _, withSources := range []bool{false, true} {
			name := filepath.Base(file)
			if withSources {
				name += "+sources"
			}
			t.Run(name, func(t *testing.T) {
				data, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				docs, err := agc.DecodeAll(file, data, agc.Limits{})
				if err != nil {
					t.Fatal(err)
				}
				var in []*agc.Response
				for _, d := range docs {
					if d.Err != nil {
						t.Fatal(d.Err)
					}
					in = append(in, d.Response)
				}
				var fsys fs.FS
				if withSources {
					fsys = sourcesForFixtures
				}
				out := roundTrip(t, in, fsys)
				for i := range in {
					if diff := cmp.Diff(meaning(t, in[i]), meaning(t, out[i])); diff != "" {
						t.Errorf("response %d changed (-in +out):\n%s", i, diff)
					}
				}
			})
		}
	}
}

func roundTrip(t *testing.T, in []*agc.Response, fsys fs.FS) []*agc.Response {
	t.Helper()
	var buf bytes.Buffer
	if err := sarif.Write(&buf, in, sarif.WriteOptions{FS: fsys}); err != nil {
		t.Fatalf("Write: %v", err)
	}
	data := buf.Bytes()
	if err := sariftest.CheckSchema(t, data); err != nil {
		t.Errorf("schema: %v", err)
	}
	if err := sariftest.CheckLimits(data); err != nil {
		t.Errorf("limits: %v", err)
	}
	log, lints, err := sarif.ReadLog(bytes.NewReader(data), "out.sarif", sarif.ReadOptions{})
	if err != nil {
		t.Fatalf("ReadLog: %v", err)
	}
	if len(lints) > 0 {
		t.Errorf("reading our own output gave lint: %v", lints)
	}
	out, lints := sarif.ToAGC(log, sarif.ToAGCOptions{FS: fsys})
	if len(lints) > 0 {
		t.Errorf("ToAGC lint: %v", lints)
	}
	if len(out) != len(in) {
		t.Fatalf("%d responses in, %d out", len(in), len(out))
	}
	return out
}

// meaning is a response as a generic JSON value, for comparison by meaning.
func meaning(t *testing.T, r *agc.Response) any {
	t.Helper()
	b, err := agc.Encode(r)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}
