package sarif_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/sarif"
)

// benchLog generates a SARIF log of results over files, with 50 rules,
// regions, partial fingerprints and a fix on every tenth result.
func benchLog(results, files int) []byte {
	var b strings.Builder
	b.WriteString(`{"version":"2.1.0","$schema":"https://json.schemastore.org/sarif-2.1.0.json","runs":[{"tool":{"driver":{"name":"Bench Lint","version":"1.0.0","rules":[`)
	for r := range 50 {
		if r > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":"BL%03d","name":"Rule%d","shortDescription":{"text":"Rule %d says something."},"defaultConfiguration":{"level":"warning"},"helpUri":"https://example.com/BL%03d"}`, r, r, r, r)
	}
	b.WriteString(`]}},"results":[`)
	for i := range results {
		if i > 0 {
			b.WriteString(",")
		}
		file := fmt.Sprintf("src/pkg%03d/file%04d.go", (i%files)/20, i%files)
		line := 1 + i/files*3
		level := []string{"error", "warning", "note"}[i%3]
		fmt.Fprintf(&b, `{"ruleId":"BL%03d","ruleIndex":%d,"level":"%s","message":{"text":"Result %d: the value at this place breaks rule %d."},`+
			`"locations":[{"physicalLocation":{"artifactLocation":{"uri":"%s","uriBaseId":"%%SRCROOT%%"},"region":{"startLine":%d,"startColumn":5,"endColumn":30,"snippet":{"text":"x := compute(%d)"}}}}],`+
			`"partialFingerprints":{"primaryLocationLineHash":"%016x:1"}`, i%50, i%50, level, i, i%50, file, line, i, uint64(i)*0x9E3779B97F4A7C15)
		if i%10 == 0 {
			fmt.Fprintf(&b, `,"fixes":[{"description":{"text":"Use the constant."},"artifactChanges":[{"artifactLocation":{"uri":"%s","uriBaseId":"%%SRCROOT%%"},"replacements":[{"deletedRegion":{"startLine":%d,"startColumn":5,"endColumn":30,"snippet":{"text":"compute(%d)"}},"insertedContent":{"text":"computeConst"}}]}]}]`, file, line, i)
		}
		b.WriteString("}")
	}
	b.WriteString(`]}]}`)
	return []byte(b.String())
}

var (
	benchOnce sync.Once
	benchData []byte
)

func benchInput() []byte {
	benchOnce.Do(func() { benchData = benchLog(25000, 2000) })
	return benchData
}

// sarifRoundTrip is SARIF → AGC → SARIF in memory, as a library user
// (the GitHub delivery) runs it.
func sarifRoundTrip(tb testing.TB, data []byte) []byte {
	return roundTripVia(tb, data, false)
}

// sarifRoundTripText also writes and reads the AGC as text in between, as
// two runs of "agc-sarif convert" do.
func sarifRoundTripText(tb testing.TB, data []byte) []byte {
	return roundTripVia(tb, data, true)
}

func roundTripVia(tb testing.TB, data []byte, asText bool) []byte {
	got, err := sarif.Read(data, "bench.sarif", sarif.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	rs := got.Responses
	for i, r := range rs {
		if !asText {
			break
		}
		text, err := agc.Encode(r)
		if err != nil {
			tb.Fatal(err)
		}
		if rs[i], err = agc.Decode("bench.agc.json", text, agc.Limits{}); err != nil {
			tb.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := sarif.Write(&buf, rs, sarif.WriteOptions{}); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// floorRoundTrip is a plain encoding/json decode and encode.
func floorRoundTrip(tb testing.TB, data []byte) []byte {
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		tb.Fatal(err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// BenchmarkRoundTrip25k compares SARIF → AGC → SARIF on 25,000 results
// over 2,000 files with the floor, a plain encoding/json decode and encode
// of the same bytes. peak-heap-MB is the largest live heap seen during one
// extra run.
func BenchmarkRoundTrip25k(b *testing.B) {
	data := benchInput()
	for _, bm := range []struct {
		name string
		fn   func(testing.TB, []byte) []byte
	}{
		{"floor-encoding-json", floorRoundTrip},
		{"sarif-agc-sarif", sarifRoundTrip},
		{"sarif-agc-text-sarif", sarifRoundTripText},
	} {
		b.Run(bm.name, func(b *testing.B) {
			loopCPU(b, len(data), func() { bm.fn(b, data) })
			b.ReportMetric(peakHeapMB(func() { bm.fn(b, data) }), "peak-heap-MB")
		})
	}
}

// BenchmarkWrite25k is the writing half of BenchmarkRoundTrip25k: the
// findings ToAGC makes of benchInput() written as SARIF by Write, next to
// the floor's half, encoding/json's encode of the log decoded into a
// generic value.
func BenchmarkWrite25k(b *testing.B) {
	data := benchInput()
	got, err := sarif.Read(data, "bench.sarif", sarif.Options{})
	if err != nil {
		b.Fatal(err)
	}
	rs := got.Responses
	var generic map[string]any
	if err := json.Unmarshal(data, &generic); err != nil {
		b.Fatal(err)
	}
	for _, bm := range []struct {
		name string
		fn   func(testing.TB) []byte
	}{
		{"floor-encode", func(tb testing.TB) []byte {
			out, err := json.Marshal(generic)
			if err != nil {
				tb.Fatal(err)
			}
			return out
		}},
		{"encode", func(tb testing.TB) []byte {
			var buf bytes.Buffer
			if err := sarif.Write(&buf, rs, sarif.WriteOptions{}); err != nil {
				tb.Fatal(err)
			}
			return buf.Bytes()
		}},
	} {
		b.Run(bm.name, func(b *testing.B) { loopCPU(b, len(data), func() { bm.fn(b) }) })
	}
}

// loopCPU runs fn in b's loop, over size bytes, and reports its CPU time.
func loopCPU(b *testing.B, size int, fn func()) {
	b.ReportAllocs()
	b.SetBytes(int64(size))
	cpu0 := cpuTime()
	n := 0
	for b.Loop() {
		fn()
		n++
	}
	b.StopTimer()
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(n)/1e6, "cpu-ms/op")
}

// cpuTime is the process's user and system CPU time, which the other
// work on a shared machine does not inflate as it does wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// peakHeapMB runs fn once and samples the live heap every millisecond.
func peakHeapMB(fn func()) float64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	base := read()
	var peak uint64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			if v := read(); v > peak {
				peak = v
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	fn()
	close(done)
	<-stopped
	if peak < base {
		return 0
	}
	return float64(peak-base) / (1 << 20)
}

// TestBenchLogConverts keeps the benchmark honest: the generated log
// converts with one finding per result and round-trips.
func TestBenchLogConverts(t *testing.T) {
	data := benchLog(300, 40)
	log, lints, err := sarif.ReadLog(bytes.NewReader(data), "bench.sarif", sarif.ReadOptions{})
	if err != nil || len(lints) > 0 {
		t.Fatalf("ReadLog: %v %v", err, lints)
	}
	rs, _ := sarif.ToAGC(log, sarif.ToAGCOptions{})
	if len(rs) != 1 || len(rs[0].Findings) != 300 {
		t.Fatalf("want 300 findings")
	}
	checkValid(t, "bench", rs[0])
	out := sarifRoundTrip(t, data)
	back, _, err := sarif.ReadLog(bytes.NewReader(out), "out.sarif", sarif.ReadOptions{})
	if err != nil || len(back.Runs[0].Results) != 300 {
		t.Fatalf("round trip: %v", err)
	}
}

// BenchmarkStreamAGC25k converts the benchmark's log to AGC text both
// ways: Read and agc.Encode (buffered), and Read writing to a file in
// memory, which holds neither the results nor the findings (streamed).
func BenchmarkStreamAGC25k(b *testing.B) {
	data := benchInput()
	for _, bm := range []struct {
		name string
		fn   func(testing.TB, []byte) []byte
	}{
		{"buffered", func(tb testing.TB, data []byte) []byte {
			got, err := sarif.Read(data, "bench.sarif", sarif.Options{})
			if err != nil {
				tb.Fatal(err)
			}
			out, err := agc.Encode(got.Responses[0])
			if err != nil {
				tb.Fatal(err)
			}
			return out
		}},
		{"streamed", func(tb testing.TB, data []byte) []byte {
			out := &memFile{}
			if got, err := sarif.Read(data, "bench.sarif", sarif.Options{Out: out}); err != nil || !got.Written {
				tb.Fatal(err)
			}
			return out.data
		}},
	} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				bm.fn(b, data)
			}
			b.StopTimer()
			b.ReportMetric(peakHeapMB(func() { bm.fn(b, data) }), "peak-heap-MB")
		})
	}
}

// memFile is a sarif.File in memory.
type memFile struct {
	data []byte
	off  int64
}

func (f *memFile) Write(p []byte) (int, error) {
	n, err := f.WriteAt(p, f.off)
	f.off += int64(n)
	return n, err
}

func (f *memFile) WriteAt(p []byte, off int64) (int, error) {
	if end := int(off) + len(p); end > cap(f.data) {
		grown := make([]byte, end, max(2*cap(f.data), end))
		copy(grown, f.data)
		f.data = grown
	} else if end > len(f.data) {
		f.data = f.data[:end]
	}
	return copy(f.data[off:], p), nil
}

func (f *memFile) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case io.SeekCurrent:
		off += f.off
	case io.SeekEnd:
		off += int64(len(f.data))
	}
	f.off = off
	return off, nil
}

func (f *memFile) Truncate(size int64) error {
	f.data = f.data[:size]
	return nil
}
