package formats

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/internal/testkit"
	"github.com/agcgate/agc-action/validate"
)

// positionInputs are real outputs of real tools, each with the positions
// its findings have, in the one form (agc.FormatLocation). eslint.sarif is
// ESLint 10 with @microsoft/eslint-formatter-sarif run on app.js in
// /tmp/dconv/es (its URIs are absolute, under that root), eslint.rdjson
// the same with eslint-formatter-rdjson, utf8.* the same on utf8.js; gofmt.diff is
// `gofmt -d m.go`; the rdjson is reviewdog's documented shape.
var positionInputs = []struct {
	name, file, from, root string
	corpus                 bool   // file is in the shared corpus of real tools' SARIF
	data                   string // instead of file
	gate, class            string
	want                   []string
}{
	{name: "eslint sarif", file: "eslint.sarif", from: "sarif", root: "/tmp/dconv/es",
		want: []string{"app.js:1:1-1:11", "app.js:1:5-1:6", "app.js:2:7-2:8", "app.js:2:20-2:30", "app.js:2:24-2:25"}},
	{name: "eslint rdjson", file: "eslint.rdjson", from: "rdjson", root: "/tmp/dconv/es",
		want: []string{"app.js:1:1-1:11", "app.js:1:5-1:6", "app.js:2:7-2:8", "app.js:2:20-2:30", "app.js:2:24-2:25"}},
	// ESLint counts columns in UTF-16 code units in SARIF and in UTF-8
	// bytes in rdjson: both become the one position.
	{name: "eslint sarif, not ascii", file: "utf8.sarif", from: "sarif", root: "/tmp/dconv/es",
		want: []string{"utf8.js:1:20-1:30", "utf8.js:1:24-1:25", "utf8.js:2:7-2:9", "utf8.js:2:15-2:25", "utf8.js:2:19-2:20"}},
	{name: "eslint rdjson, not ascii", file: "utf8.rdjson", from: "rdjson", root: "/tmp/dconv/es",
		want: []string{"utf8.js:1:20-1:30", "utf8.js:1:24-1:25", "utf8.js:2:7-2:9", "utf8.js:2:15-2:25", "utf8.js:2:19-2:20"}},
	{name: "gofmt diff", file: "gofmt.diff", from: "diff", gate: "gofmt", class: "gofmt",
		want: []string{"m.go:3-4"}},
	{name: "rdjson lines only", from: "rdjson", data: `{"source":{"name":"golint"},"diagnostics":[
		{"message":"one line","severity":"WARNING","code":{"value":"max-len"},
		 "location":{"path":"app.js","range":{"start":{"line":2}}}},
		{"message":"two lines, exclusive end","severity":"WARNING","code":{"value":"max-len"},
		 "location":{"path":"app.js","range":{"start":{"line":1},"end":{"line":2}}}}]}`,
		want: []string{"app.js:2", "app.js:1-2"}},
	{name: "corpus eslint", file: "eslint-sechub-simple.sarif", corpus: true, from: "sarif",
		want: []string{"C:/dev/sarif/sarif-tutorials/samples/Introduction/simple-example.js:1:5"}},
	{name: "corpus semgrep autofix", file: "semgrep-autofix.sarif", corpus: true, from: "sarif",
		want: []string{"targets/autofix/autofix.py:5:3-5:12", "targets/autofix/autofix.py:6:6-6:19"}},
}

// positionFS is the source root of the inputs: testdata/positions, with
// m.go the unformatted file gofmt.diff is of (kept as m.go.unformatted so
// that the repository's own gofmt check passes).
func positionFS(t *testing.T) fs.FS {
	t.Helper()
	dir := filepath.Join("testdata", "positions")
	fsys := fstest.MapFS{}
	for name, from := range map[string]string{"app.js": "app.js", "utf8.js": "utf8.js", "m.go": "m.go.unformatted"} {
		data, err := os.ReadFile(filepath.Join(dir, from))
		if err != nil {
			t.Fatal(err)
		}
		fsys[name] = &fstest.MapFile{Data: data}
	}
	return fsys
}

func readPositionInput(t *testing.T, i int) ([]*agc.Response, ReadOptions) {
	t.Helper()
	in := positionInputs[i]
	data := []byte(in.data)
	if in.file != "" {
		path := filepath.Join("testdata", "positions", in.file)
		if in.corpus {
			path = corpusFile(t, in.file)
		}
		var err error
		if data, err = os.ReadFile(path); err != nil {
			t.Fatal(err)
		}
	}
	opts := ReadOptions{FS: positionFS(t), Root: in.root, FailLevel: "error", Gate: in.gate, Class: in.class}
	f, ok := Default().Lookup(in.from)
	if !ok {
		t.Fatalf("no format %s", in.from)
	}
	rs, _, err := f.Read(cmpOr(in.file, "in.rdjson"), data, opts)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rs {
		for _, f := range r.Findings {
			got = append(got, f.Location)
		}
	}
	if strings.Join(got, " ") != strings.Join(in.want, " ") {
		t.Fatalf("locations read:\n got %q\nwant %q", got, in.want)
	}
	return rs, opts
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// TestEveryOutputKeepsPositions: every position an input had (line,
// column, end) is in every output format that can hold it: the AGC
// location, SARIF's region, rdjson's range, and the location every
// rendered format prints.
func TestEveryOutputKeepsPositions(t *testing.T) {
	reg := Default()
	for i, in := range positionInputs {
		t.Run(in.name, func(t *testing.T) {
			rs, ropts := readPositionInput(t, i)
			for _, name := range reg.Outputs() {
				f, _ := reg.Lookup(name)
				var buf bytes.Buffer
				if err := f.Write(&buf, rs, WriteOptions{FS: ropts.FS}); err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				var got []string
				switch name {
				case "sarif":
					got = sarifPositions(t, buf.Bytes())
				case "rdjson":
					// A diagnostic read from rdjson is written back as it was,
					// its path as the tool wrote it.
					got = rdjsonPositions(t, buf.Bytes(), in.root, ropts.FS)
				default:
					for _, w := range in.want {
						if !strings.Contains(buf.String(), w) {
							t.Errorf("%s: output does not show %q:\n%s", name, w, buf.String())
						}
					}
					continue
				}
				if strings.Join(got, " ") != strings.Join(in.want, " ") {
					t.Errorf("%s: positions\n got %q\nwant %q", name, got, in.want)
				}
			}
		})
	}
}

func sarifPositions(t *testing.T, data []byte) []string {
	var log struct {
		Runs []struct {
			Results []struct {
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine, StartColumn, EndLine, EndColumn int }
					}
					LogicalLocations []struct{ Name, FullyQualifiedName string }
					Properties       struct {
						Placeholder bool `json:"agc/placeholder"`
					}
				}
			}
		}
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, run := range log.Runs {
		for _, res := range run.Results {
			loc := res.Locations[0]
			if loc.Properties.Placeholder {
				// GitHub takes only relative paths: an absolute one's
				// location, position and all, is the logical location's.
				// A relative path on the stand-in is a position lost.
				ll := loc.LogicalLocations[0]
				name := cmpOr(ll.FullyQualifiedName, ll.Name)
				if path, _ := agc.LocationFile(name); !strings.HasPrefix(path, "/") && !strings.HasPrefix(path[1:], ":/") {
					name = "stand-in " + loc.PhysicalLocation.ArtifactLocation.URI + " for " + name
				}
				out = append(out, name)
				continue
			}
			pl := loc.PhysicalLocation
			rg := pl.Region
			out = append(out, agc.FormatLocation(pl.ArtifactLocation.URI, agc.Position{Line: rg.StartLine, Column: rg.StartColumn, EndLine: rg.EndLine, EndColumn: rg.EndColumn}))
		}
	}
	return out
}

// rdjsonPositions reads rdjson's positions, its byte columns as UTF-16
// code units (agc.Position).
func rdjsonPositions(t *testing.T, data []byte, root string, fsys fs.FS) []string {
	type pos struct{ Line, Column int }
	var res struct {
		Diagnostics []struct {
			Location struct {
				Path  string
				Range *struct {
					Start pos
					End   *pos
				}
			}
		}
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range res.Diagnostics {
		path := strings.TrimPrefix(d.Location.Path, root+"/")
		src, _ := fs.ReadFile(fsys, path)
		lines := strings.Split(string(src), "\n")
		units := func(line, col int) int {
			if col == 0 || line > len(lines) {
				return col
			}
			return agc.UTF16Column([]byte(lines[line-1]), col)
		}
		var p agc.Position
		if rg := d.Location.Range; rg != nil {
			p.Line, p.Column = rg.Start.Line, units(rg.Start.Line, rg.Start.Column)
			if rg.End != nil {
				p.EndLine, p.EndColumn = rg.End.Line, units(rg.End.Line, rg.End.Column)
			}
		}
		out = append(out, agc.FormatLocation(path, p))
	}
	return out
}

// TestConvertedValidatesWithoutLint: what convert writes from real
// inputs draws no lint about its own form: no L7.id-form, no
// L7.location-line-number. (L4.gate-version and L5.scope say what the
// input did not carry; they are expected exactly when it did not.)
func TestConvertedValidatesWithoutLint(t *testing.T) {
	agcFormat, _ := Default().Lookup("agc")
	for i, in := range positionInputs {
		t.Run(in.name, func(t *testing.T) {
			rs, _ := readPositionInput(t, i)
			var buf bytes.Buffer
			if err := agcFormat.Write(&buf, rs, WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			for _, v := range validate.Bytes("converted.json", buf.Bytes(), agc.Limits{}) {
				switch {
				case v.Rule == "L4.gate-version" && rs[0].Gate.Version == "":
				case v.Rule == "L5.scope" && len(rs[0].Subject.Scope) == 0:
				default:
					t.Errorf("%v", v)
				}
			}
		})
	}
}

// corpusFile is one file of the shared corpus of real tools' SARIF
// (testkit.Corpus: skipped when there is none).
func corpusFile(t *testing.T, name string) string {
	t.Helper()
	for _, f := range testkit.Corpus(t) {
		if filepath.Base(f) == name {
			return f
		}
	}
	t.Fatalf("%s is not in the SARIF corpus", name)
	return ""
}
