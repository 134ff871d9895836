package formats

import (
	"bytes"
	"io"
	"path"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/agcgate/agc-action/rdf"
	"github.com/agcgate/agc-action/udiff"
	"github.com/go-json-experiment/json/jsontext"
)

// Fixers are the formats of linters' and formatters' own output whose
// fixes become patch remedies: the Reviewdog Diagnostic Format
// (docs/rdf-mapping.md), and a fixer's unified diff. They are detected
// after the others.
func Fixers() []Format {
	return []Format{
		{Name: "rdjson", Help: "a Reviewdog Diagnostic Format DiagnosticResult (eslint -f rdjson)", Detect: LooksLikeRDJSON, Read: readRDJSON, Write: writeRDJSON},
		{Name: "rdjsonl", Help: "Reviewdog Diagnostic Format JSON Lines, one Diagnostic a line", Detect: LooksLikeRDJSONL, Read: readRDJSONL},
		{Name: "diff", Help: "a fixer's unified diff (gofmt -d, ruff format --diff, git diff): one finding per hunk", Detect: LooksLikeDiff, Read: readDiff},
	}
}

// GateFor is the gate id named after an input: its file name without
// directories and extensions ("out/gofmt.diff" → "gofmt"), else def.
func GateFor(file, def string) string {
	base := path.Base(strings.ReplaceAll(file, "\\", "/"))
	if i := strings.IndexByte(base, '.'); i >= 0 {
		base = base[:i]
	}
	if file == "" || file == "-" || strings.HasPrefix(file, "<") || base == "" {
		return def
	}
	return agc.ToolGateID(base)
}

// LooksLikeRDJSON reports whether data is an object with a "diagnostics"
// member and neither "agc" nor "runs".
func LooksLikeRDJSON(data []byte) bool {
	m := firstMembers(data)
	_, d := m["diagnostics"]
	_, a := m["agc"]
	_, r := m["runs"]
	return d && !a && !r
}

// LooksLikeRDJSONL reports whether the first line of data is an object
// with a "message" and a "location", and no "agc".
func LooksLikeRDJSONL(data []byte) bool {
	line, _, _ := bytes.Cut(bytes.TrimLeft(data, " \t\r\n"), []byte("\n"))
	m := firstMembers(line)
	_, msg := m["message"]
	_, loc := m["location"]
	_, a := m["agc"]
	return msg && loc && !a
}

func firstMembers(data []byte) map[string]string {
	if len(data) > detectWindow {
		data = data[:detectWindow]
	}
	dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	return members(dec)
}

func readRDJSON(file string, data []byte, opts ReadOptions) ([]*agc.Response, []diag.Lint, error) {
	res, lints, err := rdf.ReadResult(file, data)
	if err != nil {
		return nil, nil, err
	}
	return rdfToAGC(file, data, res, lints, opts)
}

func readRDJSONL(file string, data []byte, opts ReadOptions) ([]*agc.Response, []diag.Lint, error) {
	res, lints, err := rdf.ReadLines(file, data)
	if err != nil {
		return nil, nil, err
	}
	return rdfToAGC(file, data, res, lints, opts)
}

func rdfToAGC(file string, data []byte, res *rdf.Result, lints []diag.Lint, opts ReadOptions) ([]*agc.Response, []diag.Lint, error) {
	rs, more := rdf.ToAGC(res, rdf.ToAGCOptions{FS: opts.FS, Root: opts.Root, FailLevel: opts.FailLevel,
		Gate: opts.Gate, Default: GateFor(file, "rdjson"), Input: data})
	diag.LocateLints(file, data, more)
	return rs, append(lints, more...), nil
}

func writeRDJSON(w io.Writer, rs []*agc.Response, opts WriteOptions) error {
	return rdf.Write(w, rs, rdf.WriteOptions{FS: opts.FS})
}

// LooksLikeDiff reports whether data has a "--- " line followed by a
// "+++ " line and then a "@@ " line, within the first lines.
func LooksLikeDiff(data []byte) bool {
	if len(data) > detectWindow {
		data = data[:detectWindow]
	}
	lines := bytes.SplitN(data, []byte("\n"), 200)
	for i := 0; i+2 < len(lines); i++ {
		if bytes.HasPrefix(lines[i], []byte("--- ")) && bytes.HasPrefix(lines[i+1], []byte("+++ ")) && bytes.HasPrefix(lines[i+2], []byte("@@ ")) {
			return true
		}
	}
	return false
}

func readDiff(file string, data []byte, opts ReadOptions) ([]*agc.Response, []diag.Lint, error) {
	files, err := udiff.Parse(file, data)
	if err != nil {
		return nil, nil, err
	}
	gate := opts.Gate
	if gate == "" {
		gate = GateFor(file, "diff")
	}
	r, lints := udiff.ToAGC(file, files, udiff.ToAGCOptions{FS: opts.FS, Gate: gate, Class: opts.Class, Advisory: opts.FailLevel == "none", Input: data})
	return []*agc.Response{r}, lints, nil
}
