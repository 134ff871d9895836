package validate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/internal/testkit"
	"github.com/agcgate/agc-action/sarif"
	"github.com/agcgate/agc-action/schema"
)

// fastPathSeeds are the documents the differential test starts from: every
// AGC fixture and golden in the repository (each document of a JSON Lines
// or array file too), and the AGC converted from each log of the shared
// SARIF corpus.
func fastPathSeeds(tb testing.TB) [][]byte {
	root := testkit.RepoRoot(tb)
	var files []string
	for _, pattern := range []string{
		"fixtures/agc/*/*.json",
		"*/testdata/*/*.agc.json",
		"*/testdata/*.agc.json",
		"internal/cli/testdata/validate/*.json",
		"sarif/testdata/agc/*.json",
		"render/testdata/*.json",
	} {
		files = append(files, testkit.Glob(tb, filepath.Join(root, pattern))...)
	}
	var seeds [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		seeds = append(seeds, data)
		docs, _ := agc.DecodeAll(f, data, agc.Limits{})
		for _, d := range docs {
			if len(docs) > 1 {
				seeds = append(seeds, d.Raw)
			}
		}
	}
	for _, f := range testkit.Corpus(tb) {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		got, err := sarif.Read(data, f, sarif.Options{})
		if err != nil {
			continue // a corpus log the reader refuses gives no AGC
		}
		for _, r := range got.Responses {
			text, err := agc.Encode(r)
			if err != nil {
				tb.Fatal(err)
			}
			seeds = append(seeds, text)
		}
	}
	for _, c := range fastPathCases {
		seeds = append(seeds, []byte(c))
	}
	for _, n := range []string{"1", "0", "-0", "-1", "1.0", "1.5", "10e-1", "1E+1", "1e400", "1e-400", "0.0000001e7",
		"9007199254740991", "9007199254740992", "90071992547409910e-1", "900719925474099.1e1", "12345678901234567890"} {
		seeds = append(seeds, []byte(`{"agc":"0.1","gate":{"id":"g","kind":"judgment"},"subject":{"kind":"diff","fingerprint":"f"},"verdict":"allow","coverage":{"complete":true,"classes":[]},"attempt":{"n":`+n+`,"budget":3}}`))
	}
	return seeds
}

// fastPathCases are the corners where presence, not the decoded value,
// decides: an empty optional text, a missing find, a count written 1.0,
// an escaped member name, null where an array or a boolean belongs.
var fastPathCases = []string{
	okDoc,
	`{"agc":"0.1","gate":{"id":"g","kind":"deterministic","version":""},"subject":{"kind":"diff","fingerprint":"f"},"verdict":"allow","coverage":{"complete":true,"classes":[]},"attempt":{"n":1,"budget":1}}`,
	`{"agc":"0.1","gate":{"id":"g","kind":"judgment"},"subject":{"kind":"diff","fingerprint":"f","scope":null},"verdict":"allow","coverage":{"complete":true,"classes":[]},"attempt":{"n":1.0,"budget":2e0}}`,
	`{"\u0061gc":"0.1","gate":{"id":"g","kind":"judgment"},"subject":{"kind":"diff","fingerprint":"f"},"verdict":"allow","coverage":{"complete":true,"classes":[],"not_checked":null},"attempt":{"n":1,"budget":9007199254740992}}`,
	`{"agc":"0.1","gate":{"id":"g","kind":"judgment"},"subject":{"kind":"diff","fingerprint":"f"},"verdict":"block","coverage":{"complete":true,"classes":["c"]},"attempt":{"n":1,"budget":3},"findings":[{"id":"i","class":"c","location":"l","what":"w","why":"y","severity":"blocking","status":"new","remedy":{"kind":"patch","edits":[{"path":"p","replace":""}]},"check":{"kind":"preview"}}]}`,
	`{"agc":"0.1","gate":{"id":"g","kind":"judgment"},"subject":{"kind":"diff","fingerprint":"f"},"verdict":"block","coverage":{"complete":true,"classes":["c"]},"attempt":{"n":1,"budget":3},"findings":[{"id":"i","class":"c","location":"l","what":"w","why":"y","severity":"blocking","status":"new","remedy":{"kind":"decide","ask":"a","options":["x"],"applied":null},"check":{"kind":"command","run":""}}]}`,
	`{"agc":"0.1","gate":{"id":"g","kind":"judgment"},"subject":{"kind":"diff","fingerprint":"f"},"verdict":"escalate","coverage":{"complete":true,"classes":["c"]},"attempt":{"n":1,"budget":3},"findings":null}`,
}

// okDoc is a response the schema accepts, with one finding of each
// optional member.
const okDoc = `{"agc":"0.1","gate":{"id":"g","kind":"judgment","version":"1"},"subject":{"kind":"diff","fingerprint":"f","scope":["a"]},"verdict":"block","coverage":{"complete":false,"classes":["c"],"not_checked":["x"]},"attempt":{"n":1,"budget":3},"carried":["old"],` +
	`"findings":[{"id":"i","class":"c","location":"l","what":"w","why":"y","severity":"blocking","status":"new","remedy":{"kind":"rewrite","input":null,"applied":false},"check":{"kind":"condition","condition":"c"},"x-extra":null}]}`

// checkFastPath: on a document agc.CheckSyntax lets through, the fast path
// (schema.Accepts) accepts exactly what the JSON Schema validator accepts,
// and the validator reports the same violations with the fast path as
// without it. It returns whether the schema accepted data.
func checkFastPath(t *testing.T, data []byte) bool {
	t.Helper()
	if agc.CheckSyntax("f.json", data, agc.Limits{}) != nil {
		return false
	}
	sv, err := schema.ValidateBytes(data)
	if err != nil {
		return false
	}
	if got, want := schema.Accepts(data), len(sv) == 0; got != want {
		t.Fatalf("schema.Accepts = %v, the schema validator says %v (%v) for %.300s", got, want, sv, data)
	}
	fast := Bytes("f.json", data, agc.Limits{})
	slow := Inputs([]Input{{File: "f.json", Data: data}}, Options{ContractOnly: true, schemaAlways: true})
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("violations differ with the fast path for %.300s\nfast: %v\nslow: %v", data, fast, slow)
	}
	return len(sv) == 0
}

// TestFastPathAgrees runs the differential check on every seed; a seed set
// the schema all accepts (or all refuses) would prove little.
func TestFastPathAgrees(t *testing.T) {
	seeds := fastPathSeeds(t)
	accepted := 0
	for _, s := range seeds {
		if checkFastPath(t, s) {
			accepted++
		}
	}
	t.Logf("%d seeds, %d accepted by the schema", len(seeds), accepted)
	if accepted == 0 || accepted == len(seeds) {
		t.Fatalf("%d of %d seeds accepted: the seeds do not exercise both answers", accepted, len(seeds))
	}
}

// FuzzFastPathAgrees: for any document, the fast path and the JSON Schema
// validator agree, and so does the whole validator with and without it.
func FuzzFastPathAgrees(f *testing.F) {
	for _, s := range fastPathSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFastPath(t, data)
	})
}

// TestFastPathAgreesOnEveryMutation: for documents the schema accepts,
// with every kind of remedy and check, each variant that drops one member
// of one object, or puts another kind of value in its place, gets the
// same answer from the fast path as from the validator. Seeds alone can
// miss a required member the fast path forgets; this cannot.
func TestFastPathAgreesOnEveryMutation(t *testing.T) {
	finding := func(remedy, check string) string {
		return `{"id":"i","class":"c","location":"l","what":"w","why":"y","severity":"blocking","status":"new","remedy":` + remedy + `,"check":` + check + `}`
	}
	docs := []string{okDoc}
	for _, rc := range [][2]string{
		{`{"kind":"rewrite","input":{"a":1},"applied":true}`, `{"kind":"preview"}`},
		{`{"kind":"generate","tool":"t"}`, `{"kind":"command","run":"r"}`},
		{`{"kind":"patch","edits":[{"path":"p","find":"f","replace":"r"}]}`, `{"kind":"condition","condition":"c"}`},
		{`{"kind":"command","run":"r"}`, `{"kind":"preview"}`},
		{`{"kind":"delegate","role":"r","authority":"a"}`, `{"kind":"preview"}`},
		{`{"kind":"decide","ask":"a","options":["x","y"]}`, `{"kind":"preview"}`},
	} {
		docs = append(docs, `{"agc":"0.1","gate":{"id":"g","kind":"deterministic","version":"1"},"subject":{"kind":"commit","fingerprint":"f","scope":["a"]},"verdict":"block","coverage":{"complete":true,"classes":["c"],"not_checked":["n"]},"attempt":{"n":1,"budget":3},"findings":[`+finding(rc[0], rc[1])+`]}`)
	}
	others := []any{nil, "", "x", 0.0, 1.0, true, []any{}, []any{"x"}, map[string]any{}}
	n := 0
	for _, doc := range docs {
		var root any
		if err := json.Unmarshal([]byte(doc), &root); err != nil {
			t.Fatal(err)
		}
		if !checkFastPath(t, []byte(doc)) {
			t.Fatalf("the schema refuses the base document %s", doc)
		}
		eachMember(root, func(obj map[string]any, name string) {
			saved := obj[name]
			delete(obj, name)
			n++
			checkFastPath(t, mustJSON(t, root))
			for _, v := range others {
				obj[name] = v
				n++
				checkFastPath(t, mustJSON(t, root))
			}
			obj[name] = saved
		})
	}
	t.Logf("%d variants", n)
}

// eachMember calls f with every member of every object in v.
func eachMember(v any, f func(obj map[string]any, name string)) {
	switch x := v.(type) {
	case map[string]any:
		names := make([]string, 0, len(x))
		for name := range x {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			f(x, name)
			eachMember(x[name], f)
		}
	case []any:
		for _, e := range x {
			eachMember(e, f)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
