package bridge

import (
	"os"
	"testing"

	"github.com/agcgate/agc-action/agc"
)

func benchConvert(b *testing.B, convert convertFunc, path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, _, err := convert(path, data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFromAgentProtocol(b *testing.B) {
	benchConvert(b, FromAgentProtocol, fixtureRoot+"/agent-protocol/approval-request-1.md")
}

func BenchmarkFromReceipt(b *testing.B) {
	benchConvert(b, FromReceipt, fixtureRoot+"/gate-receipt/repair-degraded-deny-1.json")
}

func BenchmarkFromFourgate(b *testing.B) {
	benchConvert(b, FromFourgate, fixtureRoot+"/fourgate/outcome-unknown-2.json")
}

func BenchmarkClaudePreToolUse(b *testing.B) {
	data, err := os.ReadFile("../fixtures/agc/valid/repaired-rewrite.json")
	if err != nil {
		b.Fatal(err)
	}
	r, err := agc.Decode("repaired-rewrite.json", data, agc.Limits{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := ClaudePreToolUse(r, ClaudeOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
