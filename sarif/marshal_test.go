package sarif

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/agcgate/agc-action/internal/testkit"
	gosarif "github.com/owenrumney/go-sarif/v2/sarif"
)

// plainMarshal is Marshal without the splicing: one encoding/json call.
func plainMarshal(rep *gosarif.Report) ([]byte, error) {
	var buf bytes.Buffer
	if err := newEncoder(&buf).Encode(rep); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func checkMarshal(t *testing.T, name string, rep *gosarif.Report) {
	t.Helper()
	got, gotErr := Marshal(rep)
	want, wantErr := plainMarshal(rep)
	if (gotErr == nil) != (wantErr == nil) {
		t.Fatalf("%s: error %v, want %v", name, gotErr, wantErr)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s: Marshal differs from one encoding/json call\n got %.300s\nwant %.300s", name, got, want)
	}
}

// TestMarshalSpliced: Marshal writes exactly the bytes of one
// encoding/json call, for every log of the corpus and for odd reports.
func TestMarshalSpliced(t *testing.T) {
	files := testkit.Corpus(t)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		log, _, err := ReadLog(bytes.NewReader(data), f, ReadOptions{})
		if err != nil {
			continue
		}
		rs, _ := ToAGC(log, ToAGCOptions{})
		rep, err := FromAGC(rs, WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		checkMarshal(t, f, rep)
		// go-sarif's own parse of the log: every member go-sarif knows.
		var theirs gosarif.Report
		if json.Unmarshal(data, &theirs) == nil {
			checkMarshal(t, f+" (go-sarif)", &theirs)
		}
	}
	text := func(s string) gosarif.Message { return gosarif.Message{Text: &s} }
	res := func(s string) *gosarif.Result { return &gosarif.Result{Message: text(s)} }
	stand := "\x00agc-action/sarif results of run 0\x00"
	collide := &gosarif.Run{Results: []*gosarif.Result{res("a")}}
	collide.Properties = gosarif.Properties{"x": []*gosarif.Result{{Guid: &stand}}}
	nan := &gosarif.Run{Results: []*gosarif.Result{res("a"), {PropertyBag: gosarif.PropertyBag{Properties: gosarif.Properties{"n": math.NaN()}}}}}
	for name, rep := range map[string]*gosarif.Report{
		"nil":            nil,
		"no runs":        {Version: "2.1.0"},
		"empty runs":     {Version: "2.1.0", Runs: []*gosarif.Run{}},
		"nil run":        {Runs: []*gosarif.Run{nil, {Results: []*gosarif.Result{res("<&>")}}, nil}},
		"empty results":  {Runs: []*gosarif.Run{{Results: []*gosarif.Result{}}, {}}},
		"nil result":     {Runs: []*gosarif.Run{{Results: []*gosarif.Result{nil, res("b"), nil}}}},
		"three runs":     {Runs: []*gosarif.Run{{Results: []*gosarif.Result{res("1")}}, {}, {Results: []*gosarif.Result{res("2"), res("3\u2028")}}}},
		"stand-in twice": {Runs: []*gosarif.Run{collide}},
		"NaN":            {Runs: []*gosarif.Run{nan}},
	} {
		checkMarshal(t, name, rep)
	}
}
