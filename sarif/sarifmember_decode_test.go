package sarif

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/internal/testkit"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// xOfV2 is what xOf must agree with: json v2 reading the member.
func xOfV2(u []byte) (xRecord, bool) {
	var m struct {
		X *xRecord `json:"agc-action/sarif"`
	}
	if len(u) == 0 || json.Unmarshal(u, &m) != nil || m.X == nil {
		return xRecord{}, false
	}
	return *m.X, true
}

func checkXOf(t *testing.T, u []byte) (fast bool) {
	t.Helper()
	x := xOfFinding(u)
	got, ok := x.rec, x.ok
	want, wantOK := xOfV2(u)
	if ok != wantOK || !reflect.DeepEqual(got, want) {
		t.Fatalf("xOfFinding(%q) = %#v, %v; json v2 reads %#v, %v", u, got, ok, want, wantOK)
	}
	_, fast = parseXMember(u)
	if c := jsontext.Value(bytes.Clone(u)); !fast && c.Compact() == nil {
		_, fast = parseXMember(c)
	}
	return fast
}

// xMembers: the member of every test record and of every finding ToAGC
// makes of the corpus, then texts the quick read must leave to json v2.
func xMembers(t testing.TB) (canonical, other [][]byte) {
	recs := xRecords()
	for i := range recs {
		if u := xRecordMember(&recs[i]); u != nil {
			canonical = append(canonical, u)
		}
	}
	eachConverted(t, testkit.Corpus(t), func(f string, _ []byte, rs []*agc.Response) {
		// As ToAGC writes it, and as agc.Decode reads it from the text
		// agc.Encode writes (indented).
		back := viaText(t, f, rs)
		for i, r := range rs {
			for j, fd := range r.Findings {
				canonical = append(canonical, fd.Unknown, back[i].Findings[j].Unknown)
			}
		}
	})
	for _, s := range []string{
		``, `{}`, `null`, `{"agc-action/sarif":null}`, `{"agc-action/sarif":{}}`,
		`{"agc-action/sarif":{"level":"error"}} `, ` {"agc-action/sarif":{"level":"error"}}`, "{\n \"agc-action/sarif\" : {\"level\":\"a b\"}\t}",
		`{"agc-action/sarif":{"level":"error"}, }`, `{"agc-action/sarif":{"level":"error", "level":"note"}}`,
		`{"agc-action/sarif":{"level":"error"},"other":1}`, `{"other":1,"agc-action/sarif":{"level":"error"}}`,
		`{"agc-action/sarif":{"level":"error","level":"note"}}`, `{"agc-action/sarif":{"level":"e\u0041"}}`,
		`{"agc-action/sarif":{"level":"\xff"}}`, `{"agc-action/sarif":{"level":"error","region":{"startLine":01}}}`,
		`{"agc-action/sarif":{"level":"error","region":{"startLine":-0}}}`, `{"agc-action/sarif":{"level":"error","region":{"startLine":1.0}}}`,
		`{"agc-action/sarif":{"level":"error","region":{"startLine":99999999999999999999}}}`,
		`{"agc-action/sarif":{"level":"error","suppressed":false}}`, `{"agc-action/sarif":{"level":"error","suppressed":tru`,
		`{"agc-action/sarif":{"level":"error","fixes":[{"changes":null}]}}`, `{"agc-action/sarif":{"level":"error","fixes":[{"changes":[]}]}}`,
		`{"agc-action/sarif":{"level":"error","partialFingerprints":{"a":"1","a":"2"}}}`,
		`{"agc-action/sarif":{"level":"error","partialFingerprints":{"b":"1","a":"2"}}}`,
		`{"agc-action/sarif":{"level":"error","unknown":1}}`, `{"agc-action/sarif":{"level":"error"`, `{"agc-action/sarif":{"level":"error\`,
		`{"agc-action/sarif":{"level":"error"}}x`, `{"agc-action/sarif":{"level":"error"},"agc-action/sarif":{"level":"note"}}`,
		`{"agc-action/sarif":{"level":"error"},"agc-action\/sarif":{"level":"note"}}`, `{"agc-action/sarif":{"level":"error"},"h":"\u0041"}`,
		`{"agc-action/sarif":{"level":"error"},"h":"\xff"}`, `{"agc-action/sarif":{"level":"error"},"h":"a","i":"b"}`, `{"agc-action/sarif":{"level":"error"},"h":1}`,
		`{"agc-action/sarif":{"level":"error"},"h":"a\"b"}`, `{"agc-action/sarif":{"level":"error"},"h\n":"a"}`, `{"agc-action/sarif":{"level":"a\"b\\c\n"}}`,
		"{\"agc-action/sarif\":{\"level\":\"\xff\"}}", "{\"agc-action/sarif\":{\"level\":\"e\"},\"h\":\"\xff\"}",
	} {
		other = append(other, []byte(s))
	}
	return canonical, other
}

// TestXOfQuickRead: xOf reads what json v2 reads, and reads the member of
// every finding ToAGC writes without json v2.
func TestXOfQuickRead(t *testing.T) {
	canonical, other := xMembers(t)
	for _, u := range canonical {
		if !checkXOf(t, u) {
			t.Errorf("left to json v2: %s", u)
		}
	}
	for _, u := range other {
		checkXOf(t, u)
	}
}

func FuzzXRecordMember(f *testing.F) {
	canonical, other := xMembers(f)
	for _, u := range append(canonical, other...) {
		f.Add(u)
	}
	f.Fuzz(func(t *testing.T, u []byte) { checkXOf(t, u) })
}
