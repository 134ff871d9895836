package validate

import (
	"fmt"
	"testing"

	"github.com/agcgate/agc-action/agc"
)

// bigResponse builds a valid block response with n findings over n/10 files.
func bigResponse(tb testing.TB, n int) []byte {
	r := &agc.Response{
		AGC:      agc.Version,
		Gate:     agc.Gate{ID: "bench", Kind: agc.Deterministic, Version: "1"},
		Subject:  agc.Subject{Kind: agc.SubjectDiff, Fingerprint: "sha256:00", Scope: []string{"src/**"}},
		Verdict:  agc.Block,
		Coverage: agc.Coverage{Complete: true, Classes: []string{"c0", "c1", "c2", "c3", "c4"}},
		Attempt:  agc.Attempt{N: 1, Budget: 3},
	}
	for i := range n {
		class := fmt.Sprintf("c%d", i%5)
		loc := fmt.Sprintf("src/pkg%d/file%d.go#Func%d", i%50, i%(n/10+1), i)
		r.Findings = append(r.Findings, agc.Finding{
			ID: "bench/" + class + "/" + loc, Class: class, Location: loc,
			What: "Something is wrong with this function.", Why: "Rule " + class + " says so.",
			Severity: agc.Blocking, Status: agc.StatusNew,
			Remedy: agc.Remedy{Kind: agc.RemedyPatch, Edits: []agc.Edit{{Path: loc[:len(loc)-len(fmt.Sprint(i))-5], Find: "old()", Replace: "new()"}}},
			Check:  agc.Check{Kind: agc.CheckCommand, Run: "go vet ./..."},
		})
	}
	data, err := agc.Encode(r)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

func TestBigResponseIsValid(t *testing.T) {
	if vs := Bytes("big.json", bigResponse(t, 1000), agc.Limits{}); HasErrors(vs) {
		t.Fatalf("%d violations, first: %v", len(vs), vs[0])
	}
}

// BenchmarkValidate10kFindings measures the whole pipeline: syntax checks,
// JSON Schema, decoding and every rule, for one response of 10,000
// findings. It reports ns/finding.
func BenchmarkValidate10kFindings(b *testing.B) {
	const n = 10000
	data := bigResponse(b, n)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if vs := Bytes("big.json", data, agc.Limits{}); HasErrors(vs) {
			b.Fatal(vs[0])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/finding")
	b.ReportMetric(testing.AllocsPerRun(1, func() { Bytes("big.json", data, agc.Limits{}) })/n, "allocs/finding")
}

// BenchmarkDecode10kFindings is the floor BenchmarkValidate10kFindings is
// held to: agc.Decode of the same bytes (syntax checks and the strict
// typed decoder), no rule and no schema.
func BenchmarkDecode10kFindings(b *testing.B) {
	const n = 10000
	data := bigResponse(b, n)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := agc.Decode("big.json", data, agc.Limits{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/finding")
	b.ReportMetric(testing.AllocsPerRun(1, func() { _, _ = agc.Decode("big.json", data, agc.Limits{}) })/n, "allocs/finding")
}

// maxAllocsPerFinding bounds what validating one finding allocates: 18
// with the fast path, 304 when the schema validator ran on every document.
// It is generous, so only a real regression trips it.
const maxAllocsPerFinding = 40

// TestAllocsPerFinding guards the fast path's allocations: a response the
// schema accepts is decoded and checked, never built again for the schema
// validator.
func TestAllocsPerFinding(t *testing.T) {
	const n = 1000
	data := bigResponse(t, n)
	allocs := testing.AllocsPerRun(3, func() {
		if vs := Bytes("big.json", data, agc.Limits{}); HasErrors(vs) {
			t.Fatal(vs[0])
		}
	})
	t.Logf("%.0f allocations per finding", allocs/n)
	if allocs/n > maxAllocsPerFinding {
		t.Errorf("%.0f allocations per finding, more than %d", allocs/n, maxAllocsPerFinding)
	}
}
