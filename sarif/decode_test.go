package sarif

import (
	stdjson "encoding/json"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/internal/testkit"
	"github.com/go-json-experiment/json/jsontext"
)

// sameTree is reflect.DeepEqual that also tells 0 from -0, which
// fmt.Sprint (a number read as a string) tells apart.
func sameTree(a, b any) bool {
	switch a := a.(type) {
	case float64:
		bf, ok := b.(float64)
		return ok && a == bf && math.Signbit(a) == math.Signbit(bf)
	case []any:
		bs, ok := b.([]any)
		if !ok || len(a) != len(bs) {
			return false
		}
		for i := range a {
			if !sameTree(a[i], bs[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, v := range a {
			if w, ok := bm[k]; !ok || !sameTree(v, w) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

// checkDecode: for valid JSON v, treeDecoder gives encoding/json's tree
// (or both refuse a number out of range), and canonBytes gives jsontext's
// RFC 8785 form whenever treeDecoder read v as written (not lossy), else
// jsontext refuses to canonicalize v.
func checkDecode(t *testing.T, v []byte) {
	t.Helper()
	var want any
	wantErr := stdjson.Unmarshal(v, &want)
	d := treeDecoder{data: v}
	got, ok := d.value(0)
	if ok != (wantErr == nil) {
		t.Fatalf("%.200s: treeDecoder ok %v, encoding/json %v", v, ok, wantErr)
	}
	if !ok {
		return
	}
	if !sameTree(got, want) {
		t.Fatalf("%.200s: tree\n%#v\nwant\n%#v", v, got, want)
	}
	c := newCanon(v, nil)
	c.nest = 1
	if !c.value(0, 0) {
		t.Fatalf("%.200s: canonBytes refused it", v)
	}
	canon := jsontext.Value(append([]byte(nil), v...))
	err := canon.Canonicalize()
	switch {
	case c.d.lossy && err == nil:
		t.Fatalf("%.200s: lossy, but jsontext canonicalizes it", v)
	case !c.d.lossy && err != nil:
		t.Fatalf("%.200s: jsontext cannot canonicalize it: %v", v, err)
	case !c.d.lossy && string(c.out) != string(canon):
		t.Fatalf("%.200s: canonical\n%s\nwant\n%s", v, c.out, canon)
	}
}

var decodeCases = []string{
	`{}`, `[]`, `null`, `true`, `false`, `0`, `-0`, `-0.0`, `1`, `-1`, `0.5`, `1e21`, `1e20`, `123456789012345`,
	`1234567890123456789`, `9007199254740993`, `1e-7`, `1e-6`, `0.000001`, `1E+2`, `-1.5e-300`, `1e-400`, `1e400`,
	`"a"`, `""`, `"\u00e9"`, `"é"`, `"\ud83d\ude00"`, `"😀"`, `"\ud800"`, `"\udc00x"`, `"\ud800\u0041"`,
	`"\"\\\/\b\f\n\r\t\u0001\u001f\u007f"`, "\"\xff\"", "\"a\xc3\"", "\"\xe2\x82\"", `"\u2028\u2029"`, `"<>&"`, `"\uFFFD"`,
	`{"b":1,"a":2}`, `{"a":1,"a":2}`, `{"a":1,"\u0061":2}`, `{"\ue000":1,"\ud83d\ude00":2,"z":3,"é":4}`,
	`{"€":1,"𝄞":2,"ｚ":3,"a":[1,{"y":null,"x":[]}]}`, ` { "a" : [ 1 , 2 ] , "b" : { } } `,
	`{"runs":[{"tool":{"driver":{"name":"x"}},"results":[{"ruleId":"r","message":{"text":"m"}}]}]}`,
	strings.Repeat(`[`, 1100) + strings.Repeat(`]`, 1100),
}

// TestDecode checks treeDecoder and canonBytes against encoding/json and
// jsontext on the cases and on every corpus log.
func TestDecode(t *testing.T) {
	for _, c := range decodeCases {
		checkDecode(t, []byte(c))
	}
	for _, f := range testkit.Corpus(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkDecode(t, data)
	}
}

// FuzzDecode: for any JSON value, checkDecode holds.
func FuzzDecode(f *testing.F) {
	for _, c := range decodeCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !jsontext.Value(data).IsValid(jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)) {
			return
		}
		checkDecode(t, data)
	})
}

func TestCompareUTF16(t *testing.T) {
	// Sorted by UTF-16 code units.
	sorted := []string{"", "a", "ab", "b", "é", "\ud7ff", "𝄞x", "😀", "\U0010ffff", "\ue000", "ｚ", "\uffff"}
	for i := range sorted {
		for j := range sorted {
			got := compareUTF16(sorted[i], sorted[j])
			if (got < 0) != (i < j) || (got == 0) != (i == j) {
				t.Errorf("compareUTF16(%q, %q) = %d", sorted[i], sorted[j], got)
			}
		}
	}
}

// TestHasFileScheme: hasFileScheme is strings.ToLower's prefix test.
func TestHasFileScheme(t *testing.T) {
	for _, uri := range []string{"", "f", "file:", "FILE:///a", "File://x", "files:", "fil", "FİLE:///a", "fİle:", "ﬁle:", "http://a", "src/file:x"} {
		if got, want := hasFileScheme(uri), strings.HasPrefix(strings.ToLower(uri), "file:"); got != want {
			t.Errorf("hasFileScheme(%q) = %v, want %v", uri, got, want)
		}
	}
}
