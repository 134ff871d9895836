package sarif

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/internal/testkit"
	gosarif "github.com/owenrumney/go-sarif/v2/sarif"
)

// checkResults compares resultEncoder with encoding/json on every result
// of rep. mustEncode: the encoder may not decline any of them (FromAGC's
// results, which are the ones that must be fast). It returns how many it
// wrote.
func checkResults(t *testing.T, name string, rep *gosarif.Report, mustEncode bool) int {
	t.Helper()
	var e resultEncoder
	n := 0
	for i, run := range rep.Runs {
		if run == nil {
			continue
		}
		for j, r := range run.Results {
			want, wantErr := encode(r)
			got, ok := appendResult([]byte("prefix"), r, &e)
			if !bytes.HasPrefix(got, []byte("prefix")) {
				t.Fatalf("%s: run %d result %d: the buffer's start was overwritten", name, i, j)
			}
			got = got[len("prefix"):]
			switch {
			case !ok && mustEncode:
				t.Fatalf("%s: run %d result %d: declined; encoding/json writes %.300s", name, i, j, want)
			case !ok && len(got) != 0:
				t.Fatalf("%s: run %d result %d: declined but wrote %.300s", name, i, j, got)
			case ok && wantErr != nil:
				t.Fatalf("%s: run %d result %d: wrote %.300s, encoding/json fails: %v", name, i, j, got, wantErr)
			case ok && !bytes.Equal(got, want):
				t.Fatalf("%s: run %d result %d: differs from encoding/json\n got %s\nwant %s", name, i, j, got, want)
			}
			if ok {
				n++
			}
		}
	}
	return n
}

// eachConverted calls fn with each file's bytes and the responses ToAGC
// makes of it: nil when ReadLog refuses it.
func eachConverted(t testing.TB, files []string, fn func(file string, data []byte, rs []*agc.Response)) {
	t.Helper()
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var rs []*agc.Response
		if log, _, err := ReadLog(bytes.NewReader(data), f, ReadOptions{}); err == nil {
			rs, _ = ToAGC(log, ToAGCOptions{})
		}
		fn(f, data, rs)
	}
}

// viaText is rs written by agc.Encode and read back by agc.Decode, as two
// runs of the CLI pass them.
func viaText(t testing.TB, file string, rs []*agc.Response) []*agc.Response {
	t.Helper()
	back := make([]*agc.Response, len(rs))
	for i, r := range rs {
		text, err := agc.Encode(r)
		if err != nil {
			t.Fatal(err)
		}
		if back[i], err = agc.Decode(file, text, agc.Limits{}); err != nil {
			t.Fatal(err)
		}
	}
	return back
}

// agcInputs: every valid AGC fixture of the repository, the package's own
// AGC test responses and the AGC goldens.
func agcInputs(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, pat := range []string{"../fixtures/agc/valid/*.json", "../fixtures/agc/*/valid/*.json", "testdata/agc/*.json", "testdata/*.agc.json"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 5 {
		t.Fatalf("only %d AGC inputs: %v", len(files), files)
	}
	return files
}

// decodeAGC reads a response or an array of them.
func decodeAGC(t *testing.T, file string) []*agc.Response {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if trimmed := bytes.TrimSpace(data); len(trimmed) > 0 && trimmed[0] == '[' {
		var raws []json.RawMessage
		if err := json.Unmarshal(trimmed, &raws); err != nil {
			t.Fatal(err)
		}
		var rs []*agc.Response
		for _, raw := range raws {
			r, err := agc.Decode(file, raw, agc.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			rs = append(rs, r)
		}
		return rs
	}
	r, err := agc.Decode(file, data, agc.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return []*agc.Response{r}
}

// TestResultEncoderIsEncodingJSON: the hand-written result encoder writes
// the bytes encoding/json writes, for every result FromAGC makes of the
// corpus, the AGC fixtures and the goldens (and declines none of them),
// for every result go-sarif reads from the corpus and the SARIF goldens
// and fixtures (which set members FromAGC never does), and for odd values.
func TestResultEncoderIsEncodingJSON(t *testing.T) {
	src := fstest.MapFS{
		"src/store/db.go": {Data: []byte("package store\n\nvar dbUrl = \"postgres://\"\n\nfunc Open() (*DB, error) {\n\tdb := connect(dbUrl)\n\tdb.Ping()\n\treturn db, nil\n}\n")},
	}
	fromAGC := func(name string, rs []*agc.Response) {
		for _, opts := range []WriteOptions{{}, {FS: src}, {FindingsOnly: true}} {
			rep, err := FromAGC(rs, opts)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			checkResults(t, name, rep, true)
			checkMarshal(t, name, rep)
		}
	}
	written := 0
	sarifs, _ := filepath.Glob("testdata/*.sarif")
	fixtures, _ := filepath.Glob("../fixtures/sarif/*.sarif")
	sarifs = append(sarifs, fixtures...)
	eachConverted(t, append(testkit.Corpus(t), sarifs...), func(f string, data []byte, rs []*agc.Response) {
		if rs != nil {
			fromAGC(f, rs)
			fromAGC(f+" (AGC text)", viaText(t, f, rs))
		}
		var theirs gosarif.Report
		if json.Unmarshal(data, &theirs) == nil {
			written += checkResults(t, f+" (go-sarif)", &theirs, false)
		}
	})
	if written == 0 {
		t.Fatal("the encoder wrote none of go-sarif's results")
	}
	for _, f := range agcInputs(t) {
		fromAGC(f, decodeAGC(t, f))
	}

	s := func(v string) *string { return &v }
	n := func(v int) *int { return &v }
	u := func(v uint) *uint { return &v }
	odd := "a\"b\\c\b\f\n\r\t\x00\x1f\x7f<&>\u2028\u2029\xff\xc3é😀 end"
	loc := &gosarif.Location{Id: u(3), Message: &gosarif.Message{Text: s(odd), Arguments: []string{"x", odd}},
		PhysicalLocation: &gosarif.PhysicalLocation{ContextRegion: &gosarif.Region{ByteOffset: n(0), ByteLength: n(-1), SourceLanguage: s("go")}}}
	rich := &gosarif.Result{
		Guid: s(odd), RuleID: s(""), RuleIndex: u(0), Kind: s(odd), Level: s("note"),
		Message:   gosarif.Message{Markdown: s("*m*"), ID: s("id"), PropertyBag: gosarif.PropertyBag{Properties: gosarif.Properties{}}},
		Locations: []*gosarif.Location{nil, loc, {}},
		PartialFingerprints: map[string]any{odd: odd, "b": nil, "a": true, "n": 1.5, "i": 7, "m": map[string]any{"z": 1, "a": []int{1}},
			"raw": rawJSON(" { \"a\" : [ 1 , 2 ] } "), "compact": rawCompact(`{"a":1}`), "": false},
		Suppressions: []*gosarif.Suppression{nil, {Kind: "inSource"}, {Kind: "external", Status: s("accepted"), Location: loc, Guid: s("g"), Justification: s(odd)}},
		Fixes: []*gosarif.Fix{nil, {}, {ArtifactChanges: []*gosarif.ArtifactChange{}}, {Description: &gosarif.Message{},
			ArtifactChanges: []*gosarif.ArtifactChange{nil, {}, {Replacements: []*gosarif.Replacement{nil, {}, {InsertedContent: &gosarif.ArtifactContent{Binary: s("AA==")}}}}}}},
	}
	rich.Properties = gosarif.Properties{"x": odd}
	bad := func(p gosarif.Properties) *gosarif.Result {
		return &gosarif.Result{Message: gosarif.Message{Text: s("t")}, PropertyBag: gosarif.PropertyBag{Properties: p}}
	}
	count := uint(1)
	for name, tt := range map[string]struct {
		r  *gosarif.Result
		ok bool
	}{
		"nil":           {nil, true},
		"empty":         {&gosarif.Result{}, true},
		"rich":          {rich, true},
		"NaN":           {bad(gosarif.Properties{"n": math.NaN()}), false},
		"invalid raw":   {bad(gosarif.Properties{"r": rawJSON("{")}), false},
		"empty raw":     {bad(gosarif.Properties{"r": rawJSON(nil)}), false},
		"empty compact": {bad(gosarif.Properties{"r": rawCompact{}}), false},
		"raw values": {bad(gosarif.Properties{"dup": rawJSON(`{"a":1,"a":2}`), "utf8": rawJSON("\"\xff\u2028<\""), "space in string": rawJSON(`{"a b":"c\td"}`),
			"tab": rawJSON("[1,\t2]"), "number": rawJSON("-0.5e+10"),
			"escaped quote": rawJSON(`["a\" b", "c\\"]`), "escaped quote, compact": rawJSON(`["a\" b","c\\"]`), "deep": rawJSON(strings.Repeat("[", 10000) + strings.Repeat("]", 10000))}), true},
		"raw too deep":      {bad(gosarif.Properties{"r": rawJSON(strings.Repeat("[", 10001) + strings.Repeat("]", 10001))}), false},
		"raw trailing text": {bad(gosarif.Properties{"r": rawJSON("{}x")}), false},
		"raw two values":    {bad(gosarif.Properties{"r": rawJSON("1 2")}), false},
		"raw bad escape":    {bad(gosarif.Properties{"r": rawJSON(`"\x"`)}), false},
		"related location":  {&gosarif.Result{RelatedLocations: []*gosarif.Location{}}, false},
		"occurrences":       {&gosarif.Result{OccurrenceCount: &count}, false},
		"rendered snippet":  {&gosarif.Result{Locations: []*gosarif.Location{{PhysicalLocation: &gosarif.PhysicalLocation{Region: &gosarif.Region{Snippet: &gosarif.ArtifactContent{Rendered: &gosarif.MultiformatMessageString{}}}}}}}, false},
	} {
		rep := &gosarif.Report{Runs: []*gosarif.Run{{Results: []*gosarif.Result{tt.r}}}}
		if got := checkResults(t, name, rep, false); got != map[bool]int{true: 1}[tt.ok] {
			t.Errorf("%s: encoded %d results, want ok=%v", name, got, tt.ok)
		}
		checkMarshal(t, name, rep)
	}
}

// FuzzRawJSON: the encoder writes raw JSON as encoding/json does, checked
// and compacted, and declines what encoding/json refuses.
func FuzzRawJSON(f *testing.F) {
	for _, s := range []string{`{"a": [1, 2]}`, `{"a":1,"a":2}`, "\"\xff\"", ` "a\" b" `, `[1,]`, `{} x`, "-0.5e+10", "\t[\n]\r", `"\u00"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var want bytes.Buffer
		wantErr := json.Compact(&want, raw)
		e := resultEncoder{}
		e.b = []byte("x")
		e.raw(raw)
		switch {
		case wantErr != nil || len(raw) == 0:
			if !e.bad {
				t.Fatalf("%q: wrote %q, encoding/json refuses it (%v)", raw, e.b[1:], wantErr)
			}
		case e.bad:
			t.Fatalf("%q: declined, encoding/json writes %q", raw, want.Bytes())
		case string(e.b[1:]) != want.String():
			t.Fatalf("%q: wrote %q, encoding/json writes %q", raw, e.b[1:], want.Bytes())
		}
	})
}

// TestURIMatchers: hasScheme and hasDrive match what the regular
// expressions they replace match.
func TestURIMatchers(t *testing.T) {
	for _, s := range []string{"", ":", "a", "a:", "A:/x", "/c:/x", "//c:/x", "c:", "c:x", "/c:", "1a:", "a1+.-:", "a_b:", "file:///x", "https://x", "src/a:b", "é:", "a:/", "/", "ab:/"} {
		checkURIMatchers(t, s)
	}
}

func FuzzURIMatchers(f *testing.F) {
	for _, s := range []string{"a:", "/c:/x", "file:///x", "src/a.go"} {
		f.Add(s)
	}
	f.Fuzz(checkURIMatchers)
}

func checkURIMatchers(t *testing.T, s string) {
	scheme := regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.\-]*:`)
	drive := regexp.MustCompile(`^/?[A-Za-z]:/`)
	if got, want := hasDrive(s), drive.MatchString(s); got != want {
		t.Fatalf("hasDrive(%q) = %v, want %v", s, got, want)
	}
	if got, want := hasScheme(s), scheme.MatchString(s) && !drive.MatchString(s); got != want {
		t.Fatalf("hasScheme(%q) = %v, want %v", s, got, want)
	}
}
