package sarif_test

import (
	"encoding/json"
	"testing"

	"github.com/agcgate/agc-action/sarif"
)

// BenchmarkRead25k measures the reading half of the round trip on the
// benchmark's log (benchInput): ReadLog and ToAGC, beside the floor's
// reading half, a plain encoding/json decode of the same bytes, and the
// whole floor (decode and encode) it is a share of.
func BenchmarkRead25k(b *testing.B) {
	data := benchInput()
	for _, bm := range []struct {
		name string
		fn   func(testing.TB, []byte)
	}{
		{"floor-decode", func(tb testing.TB, data []byte) {
			var v map[string]any
			if err := json.Unmarshal(data, &v); err != nil {
				tb.Fatal(err)
			}
		}},
		{"floor-encoding-json", func(tb testing.TB, data []byte) { floorRoundTrip(tb, data) }},
		{"readlog-toagc", func(tb testing.TB, data []byte) {
			if got, err := sarif.Read(data, "bench.sarif", sarif.Options{}); err != nil || len(got.Responses) != 1 {
				tb.Fatal("want one response", err)
			}
		}},
	} {
		b.Run(bm.name, func(b *testing.B) { loopCPU(b, len(data), func() { bm.fn(b, data) }) })
	}
}
