package extract

import (
	"bytes"
	"os"
	"testing"
)

// BenchmarkFind measures a realistic review message.
func BenchmarkFind(b *testing.B) {
	msg, err := os.ReadFile("testdata/code-review.md")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(msg)))
	for b.Loop() {
		if _, _, err := Find("msg.md", msg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFindLarge measures a 4 MiB message of prose, lists, quotes and
// code blocks ending in one agc block.
func BenchmarkFindLarge(b *testing.B) {
	unit := []byte("Some prose with `code` and a [link](x).\n\n- item\n  > quoted\n\n```go\nfunc f() {}\n```\n\n    indented\n\n<div>\nhtml\n</div>\n\n")
	var buf bytes.Buffer
	for buf.Len() < 4<<20 {
		buf.Write(unit)
	}
	buf.WriteString("```agc\n{}\n```\n")
	msg := buf.Bytes()
	b.SetBytes(int64(len(msg)))
	for b.Loop() {
		if _, _, err := Find("msg.md", msg); err != nil {
			b.Fatal(err)
		}
	}
}
