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

// slowRun is what decodeRun must agree with: encoding/json's tree and
// canonicalHash of the bytes.
func slowRun(v []byte) (any, string, error) {
	var tree any
	if err := stdjson.Unmarshal(v, &tree); err != nil {
		return nil, "", err
	}
	return tree, canonicalHash(v), nil
}

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

func checkDecodeRun(t *testing.T, v []byte) (fast bool) {
	t.Helper()
	wantTree, wantFP, wantErr := slowRun(v)
	gotTree, gotFP, gotErr := decodeRun(v, map[string]string{})
	if (wantErr == nil) != (gotErr == nil) {
		t.Fatalf("%.200s: error %v, want %v", v, gotErr, wantErr)
	}
	if wantErr != nil {
		return false
	}
	if !sameTree(gotTree, wantTree) {
		t.Fatalf("%.200s: tree\n%#v\nwant\n%#v", v, gotTree, wantTree)
	}
	if gotFP != wantFP {
		t.Fatalf("%.200s: fingerprint %s, want %s", v, gotFP, wantFP)
	}
	d := treeDecoder{data: v}
	_, ok := d.value(0)
	return ok && d.end()
}

var decodeRunCases = []string{
	`{}`, `[]`, `null`, `true`, `false`, `0`, `-0`, `-0.0`, `1`, `-1`, `0.5`, `1e21`, `1e20`, `123456789012345`,
	`1234567890123456789`, `9007199254740993`, `1e-7`, `1e-6`, `0.000001`, `1E+2`, `-1.5e-300`, `1e-400`, `1e400`,
	`"a"`, `""`, `"\u00e9"`, `"é"`, `"\ud83d\ude00"`, `"😀"`, `"\ud800"`, `"\udc00x"`, `"\ud800\u0041"`,
	`"\"\\\/\b\f\n\r\t\u0001\u001f\u007f"`, "\"\xff\"", "\"a\xc3\"", `"\u2028\u2029"`, `"<>&"`, `"\uFFFD"`,
	`{"b":1,"a":2}`, `{"a":1,"a":2}`, `{"a":1,"\u0061":2}`, `{"\ue000":1,"\ud83d\ude00":2,"z":3,"é":4}`,
	`{"€":1,"𝄞":2,"ｚ":3,"a":[1,{"y":null,"x":[]}]}`, ` { "a" : [ 1 , 2 ] , "b" : { } } `,
	`{"runs":[{"tool":{"driver":{"name":"x"}},"results":[{"ruleId":"r","message":{"text":"m"}}]}]}`,
	strings.Repeat(`[`, 1100) + strings.Repeat(`]`, 1100),
}

// TestDecodeRun: the one-pass decoder and streaming canonical hash give
// exactly what encoding/json and jsontext canonicalization give, or leave
// the input to them.
func TestDecodeRun(t *testing.T) {
	for _, c := range decodeRunCases {
		checkDecodeRun(t, []byte(c))
	}
	files := testkit.Corpus(t)
	fast := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if checkDecodeRun(t, data) {
			fast++
		}
	}
	t.Logf("%d of %d corpus files take the fast path", fast, len(files))
	if len(files) == 0 || fast < len(files)*3/4 {
		t.Errorf("only %d of %d corpus files take the fast path", fast, len(files))
	}
}

// FuzzDecodeRun: for any JSON value, decodeRun agrees with encoding/json
// and Canonicalize.
func FuzzDecodeRun(f *testing.F) {
	for _, c := range decodeRunCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !jsontext.Value(data).IsValid(jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)) {
			return
		}
		checkDecodeRun(t, data)
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
