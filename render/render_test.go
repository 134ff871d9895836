package render

import (
	"bytes"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/internal/golden"
	"github.com/agcgate/agc-action/internal/testkit"

	"github.com/agcgate/agc-action/agc"
)

var update = flag.Bool("update", false, "rewrite golden files")

// inputs are every valid fixture of the repository and this package's own
// responses (testdata/render-*.json: hostile content, every kind).
func inputs(t testing.TB) []string {
	t.Helper()
	return testkit.Glob(t, "../fixtures/agc/valid/*.json", "testdata/render-*.json")
}

type format struct {
	ext    string
	render func(*bytes.Buffer, *agc.Response) error
}

var formats = []format{
	{"txt", func(b *bytes.Buffer, r *agc.Response) error { return Text(b, r) }},
	{"md", func(b *bytes.Buffer, r *agc.Response) error { return Markdown(b, r) }},
}

func TestGolden(t *testing.T) {
	for _, file := range inputs(t) {
		r := testkit.Response(t, file)
		base := strings.TrimSuffix(filepath.Base(file), ".json")
		for _, f := range formats {
			t.Run(base+"."+f.ext, func(t *testing.T) {
				var got bytes.Buffer
				if err := f.render(&got, r); err != nil {
					t.Fatal(err)
				}
				compareGolden(t, filepath.Join("testdata", base+"."+f.ext+".golden"), got.String())
			})
		}
	}
}

func compareGolden(t *testing.T, path, got string) {
	t.Helper()
	golden.Check(t, path, []byte(got), *update)
}

func BenchmarkMarkdown(b *testing.B) {
	for _, name := range []string{"../fixtures/agc/valid/block-patch.json", "testdata/render-hostile.json"} {
		r := testkit.Response(b, name)
		b.Run(filepath.Base(name), func(b *testing.B) {
			var buf bytes.Buffer
			for b.Loop() {
				buf.Reset()
				if err := Markdown(&buf, r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkText(b *testing.B) {
	r := testkit.Response(b, "../fixtures/agc/valid/block-patch.json")
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := Text(&buf, r); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEscape(b *testing.B) {
	s := strings.Repeat("The error returned by db.Ping is ignored; see #12 and @octocat. ", 16)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		Escape(s)
	}
}
