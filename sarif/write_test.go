package sarif_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/formats"
	"github.com/agcgate/agc-action/internal/golden"
	"github.com/agcgate/agc-action/internal/testkit"
	"github.com/agcgate/agc-action/sarif"
	"github.com/agcgate/agc-action/sarif/sariftest"
	jsonv2 "github.com/go-json-experiment/json"
)

// writeLog is the log sarif writes of rs.
func writeLog(rs []*agc.Response, opts sarif.WriteOptions) ([]byte, error) {
	var buf bytes.Buffer
	err := sarif.Write(&buf, rs, opts)
	return buf.Bytes(), err
}

// writeSources is a source root with the file the odd responses and the
// fixtures name, so that lines, line hashes and fixes resolve.
var writeSources = fstest.MapFS{
	"src/store/db.go": {Data: []byte("package store\n\nvar dbUrl = \"postgres://\"\n\nfunc Open() (*DB, error) {\n\tdb := connect(dbUrl)\n\tdb.Ping()\n\treturn db, nil\n}\n")},
	"src/a.go":        {Data: []byte("package a\n\nfunc Open() {}\n")},
	"README.md":       {Data: []byte("# r\n")},
}

// writeOptions are the ways the commands write: as convert does, and as
// the Action writes for code scanning.
var writeOptions = []struct {
	name string
	opts sarif.WriteOptions
}{
	{"plain", sarif.WriteOptions{}},
	{"github", sarif.WriteOptions{FS: writeSources, FindingsOnly: true, Category: "lint"}},
}

func oddResponse(gate string, findings ...agc.Finding) *agc.Response {
	return &agc.Response{AGC: "0.1", Gate: agc.Gate{ID: gate, Kind: agc.Deterministic},
		Subject: agc.Subject{Kind: agc.SubjectCommit, Fingerprint: "sha256:00"}, Verdict: agc.Allow,
		Coverage: agc.Coverage{Complete: true, Classes: []string{"c"}, NotChecked: []string{"x", "x"}}, Attempt: agc.Attempt{N: 1, Budget: 1},
		Findings: findings}
}

func oddFinding(i int, loc, unknown string) agc.Finding {
	f := agc.Finding{ID: fmt.Sprintf("g/c/f%d", i), Class: "c", Location: loc, What: "w", Why: "y",
		Severity: agc.Advisory, Status: agc.StatusNew, Remedy: agc.Remedy{Kind: agc.RemedyCommand, Run: "true"}, Check: agc.Check{Kind: agc.CheckPreview}}
	if unknown != "" {
		f.Unknown = agc.Unknown(unknown)
	}
	return f
}

// oddResponses are what the fixtures lack: no findings, runs without
// results between others, a gate twice, places GitHub cannot take, odd
// strings, unknown members beside the agc-action/sarif member, patches.
func oddResponses() map[string][]*agc.Response {
	odd := "a\"b\\c\b\f\n\r\t\x00\x1f\x7f<&>\u2028\u2029é😀 end"
	oddF := oddFinding(1, odd, "")
	oddF.What, oddF.Why, oddF.Class, oddF.Severity, oddF.Status = odd+"\xff", odd, odd, odd, agc.StatusStillOpen
	patch := oddFinding(5, "src/a.go#Open", "")
	patch.Remedy = agc.Remedy{Kind: agc.RemedyPatch, Edits: []agc.Edit{{Path: "src/a.go", Find: "Open", Replace: "Close"}, {Path: "src/store/db.go", Find: "dbUrl =", Replace: "dbURL ="}}}
	patch.Status = agc.StatusRegressed
	carried := oddResponse("carried", oddFinding(1, "src/a.go:3", ""))
	carried.Carried = []string{"g/c/old"}
	carried.Unknown = agc.Unknown(`{"x-extra": {"a": [1, 2]}}`)
	tool := oddResponse("tool", oddFinding(1, "Bash.command", ""))
	tool.Subject.Kind = agc.SubjectToolCall
	return map[string][]*agc.Response{
		"none":       nil,
		"no-finding": {oddResponse("g")},
		"between":    {oddResponse("a", oddFinding(1, "a.go", "")), oddResponse("b"), oddResponse("a", oddFinding(2, "dir/b.go#Sym", ""))},
		"placeholder": {oddResponse("g", oddFinding(1, "/abs/path", ""), oddFinding(2, "", ""), oddFinding(3, "../up", ""),
			oddFinding(4, "dir/x y%.go", ""))},
		"odd-strings": {oddResponse(odd, oddF)},
		"other-unknown": {oddResponse("g", oddFinding(1, "a.go", `{"z":1}`), oddFinding(2, "a.go", `{ "agc-action/sarif" : { "level" : "note" , "uri" : "q.go" } }`),
			oddFinding(3, "a.go", `{"agc-action/sarif":{"level":"note","partialFingerprints":{"primaryLocationLineHash":"h","a":"b"},"fingerprints":{"agcFindingId/v1":"other"}},"w":[1, 2]}`),
			oddFinding(4, "src/a.go", `{"agc-action/sarif":{"level":"error","uri":"","logical":"L","fixes":[{"changes":[{"uri":"src/a.go","replacements":[{"deleted":{"startLine":1,"charOffset":0,"charLength":2},"inserted":"z"}]}]},{"description":"none","changes":[]}]}}`))},
		"patch":   {oddResponse("p", patch, oddFinding(6, "src/store/db.go#Open", ""), oddFinding(7, "README.md", ""))},
		"carried": {carried, tool},
	}
}

// writeInputs: every SARIF and AGC fixture and golden of the repository,
// read as the commands read them, and the odd responses.
func writeInputs(t *testing.T) map[string][]*agc.Response {
	t.Helper()
	reg := formats.Default()
	inputs := oddResponses()
	for _, pat := range []string{"../fixtures/sarif/*.sarif", "testdata/*.sarif", "../fixtures/agc/valid/*.json", "testdata/agc/*.json", "testdata/*.agc.json"} {
		for _, f := range testkit.Glob(t, pat) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			from := "agc"
			if strings.HasSuffix(f, ".sarif") {
				from = "sarif"
			}
			in, _ := reg.Lookup(from)
			rs, _, err := in.Read(f, data, formats.ReadOptions{})
			if err != nil {
				continue // a hostile fixture: nothing to write
			}
			name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(f), ".json"), ".sarif")
			if strings.HasPrefix(f, "testdata/") {
				name = "golden-" + name
			}
			inputs[from+"-"+name] = rs
		}
	}
	return inputs
}

// TestWriteGolden writes every input of writeInputs with each of
// writeOptions and compares the log, by meaning, with
// testdata/write/INPUT.OPTIONS.sarif (-update writes them); every log
// must pass the SARIF schema, GitHub's limits and the Multitool.
func TestWriteGolden(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for name, rs := range writeInputs(t) {
		for _, o := range writeOptions {
			file := name + "." + o.name + ".sarif"
			t.Run(file, func(t *testing.T) {
				out, err := writeLog(rs, o.opts)
				if err != nil {
					t.Fatal(err)
				}
				golden.Check(t, filepath.Join("testdata", "write", file), out, *update)
				if err := sariftest.CheckSchema(t, out); err != nil {
					t.Errorf("schema: %v", err)
				}
				if err := sariftest.CheckLimits(out); err != nil {
					t.Errorf("limits: %v", err)
				}
				p := filepath.Join(dir, file)
				if err := os.WriteFile(p, out, 0o644); err != nil {
					t.Fatal(err)
				}
				files = append(files, p)
			})
		}
	}
	for file, errs := range sariftest.Multitool(t, files) {
		t.Errorf("Multitool errors in %s:\n  %s", file, strings.Join(errs, "\n  "))
	}
}

// TestWriteBytesDump writes, when AGC_WRITE_DUMP names a folder, the log of
// every corpus log's findings (as read, and through AGC text) and of every
// input of writeInputs, with four sets of options: to compare two builds'
// bytes by hand.
func TestWriteBytesDump(t *testing.T) {
	dir := os.Getenv("AGC_WRITE_DUMP")
	if dir == "" {
		t.Skip("AGC_WRITE_DUMP not set")
	}
	inputs := writeInputs(t)
	in, _ := formats.Default().Lookup("sarif")
	for _, f := range testkit.Corpus(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rs, _, err := in.Read(f, data, formats.ReadOptions{})
		if err != nil {
			continue
		}
		inputs["corpus-"+filepath.Base(f)] = rs
		inputs["corpus-text-"+filepath.Base(f)] = reencode(t, rs)
	}
	for name, rs := range inputs {
		for i, opts := range []sarif.WriteOptions{{}, {FS: writeSources}, {FindingsOnly: true}, {Category: "lint"}} {
			out, err := writeLog(rs, opts)
			if err != nil {
				out = []byte("error: " + err.Error())
			}
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s.%d", name, i)), out, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// FuzzWrite: for a finding of any text, Write either refuses it with an
// error naming the response and the finding, or writes valid JSON that
// reads back (as the commands read SARIF) to the same findings.
func FuzzWrite(f *testing.F) {
	f.Add("c", "src/a.go", "what", "why", agc.Blocking, agc.StatusNew, `{"agc-action/sarif":{"level":"note","uri":"src/a.go","region":{"startLine":3,"charOffset":0,"snippet":"x"}}}`, uint8(0))
	f.Add("c/d", "src/a.go#Open", "w", "", agc.Advisory, agc.StatusRegressed, "", uint8(1))
	f.Add("c", "Bash.command", "w\u2028", "y", "odd", "", `{"agc-action/sarif":{"level":"error","uri":"","logical":"L","fixes":[{"changes":[{"uri":"a.go","replacements":[{"deleted":{"startLine":1},"inserted":"z"}]}]}]}}`, uint8(2))
	f.Add("c", "a.go", "w", "y", agc.Advisory, agc.StatusNew, `{"z":`, uint8(0))
	f.Add("c", "a.go", "w", "y", agc.Advisory, agc.StatusNew, "", uint8(16))
	f.Fuzz(func(t *testing.T, class, loc, what, why, severity, status, unknown string, mode uint8) {
		fd := oddFinding(1, loc, unknown)
		fd.Class, fd.What, fd.Why, fd.Severity, fd.Status = class, what, why, severity, status
		if mode&1 != 0 {
			fd.Remedy = agc.Remedy{Kind: agc.RemedyPatch, Edits: []agc.Edit{{Path: "src/a.go", Find: "Open", Replace: what}}}
		}
		if mode&16 != 0 {
			fd.Remedy.Ask = what // a remedy string json v2 refuses when it is not UTF-8
		}
		r := oddResponse("g", fd, oddFinding(2, "README.md", ""))
		if mode&2 != 0 {
			r.Subject.Kind = agc.SubjectToolCall
		}
		opts := sarif.WriteOptions{FindingsOnly: mode&4 != 0}
		if mode&8 != 0 {
			opts.FS = writeSources
		}
		out, err := writeLog([]*agc.Response{r}, opts)
		if err != nil {
			if !strings.Contains(err.Error(), `response 0 (gate "g"): finding 0 (g/c/f1): encode agc/`) {
				t.Fatalf("an error that does not name the finding and the member: %v", err)
			}
			return
		}
		if !json.Valid(out) {
			t.Fatalf("not JSON: %s", out)
		}
		in, _ := formats.Default().Lookup("sarif")
		back, _, err := in.Read("out.sarif", out, formats.ReadOptions{})
		if err != nil {
			t.Fatalf("does not read back: %v\n%s", err, out)
		}
		for _, s := range []string{class, loc, what, why, severity, status, unknown} {
			if !utf8.ValidString(s) {
				return // written with U+FFFD in place of what is not UTF-8
			}
		}
		if what == "" {
			return // not a finding the contract allows: reading names the message
		}
		if len(back) != 1 || len(back[0].Findings) != 2 {
			t.Fatalf("read back %d responses, want 1 with 2 findings", len(back))
		}
		for i, want := range r.Findings {
			got := back[0].Findings[i]
			if got.ID != want.ID || got.Class != want.Class || got.Location != want.Location || got.What != want.What ||
				got.Why != want.Why || got.Severity != want.Severity || got.Status != want.Status || remedyJSON(t, got) != remedyJSON(t, want) {
				t.Fatalf("finding %d read back as %+v, want %+v", i, got, want)
			}
		}
	})
}

func remedyJSON(t *testing.T, f agc.Finding) string {
	b, err := jsonv2.Marshal(f.Remedy)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestWriteRefuses: a member that does not encode is an error naming the
// response, the finding and the member.
func TestWriteRefuses(t *testing.T) {
	badUnknown := oddResponse("g", oddFinding(1, "a.go", `{"z":`))
	badRemedy := oddResponse("g", oddFinding(1, "a.go", ""))
	badRemedy.Findings[0].Remedy.Ask = "\xff"
	badResponse := oddResponse("g")
	badResponse.Unknown = agc.Unknown(`[1,`)
	for _, tt := range []struct {
		name string
		rs   []*agc.Response
		want string
	}{
		{"unknown members", []*agc.Response{oddResponse("a"), badUnknown}, `response 1 (gate "g"): finding 0 (g/c/f1): encode agc/unknown: not JSON: "{\"z\":"`},
		{"remedy", []*agc.Response{badRemedy}, `response 0 (gate "g"): finding 0 (g/c/f1): encode agc/remedy: `},
		{"response", []*agc.Response{badResponse}, `response 0 (gate "g"): encode agc/unknown: not JSON: "[1,"`},
	} {
		if _, err := writeLog(tt.rs, sarif.WriteOptions{}); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %s...", tt.name, err, tt.want)
		}
	}
}
