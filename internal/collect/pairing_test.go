package action

import (
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
)

func TestParsePattern(t *testing.T) {
	ok := []struct {
		line string
		want filePattern
	}{
		{"review.md", filePattern{glob: "review.md"}},
		{"code-review=review.md", filePattern{gate: "code-review", glob: "review.md"}},
		{"  code-review =  out/**/*.md ", filePattern{gate: "code-review", glob: "out/**/*.md"}},
		{"gate-admission/a1b2c=receipts/*.json", filePattern{gate: "gate-admission/a1b2c", glob: "receipts/*.json"}},
		{"lint=out/a=b.json", filePattern{gate: "lint", glob: "out/a=b.json"}},
		{`lint=out/a\=b.json`, filePattern{gate: "lint", glob: "out/a=b.json"}},
		{`out/a\=b.json`, filePattern{glob: "out/a=b.json"}},
		{`\=x`, filePattern{glob: "=x"}},
		{"lint=/abs/path.sarif", filePattern{gate: "lint", glob: "/abs/path.sarif"}},
		{`a\\=b`, filePattern{glob: `a\=b`}},
	}
	for _, c := range ok {
		got, err := parsePattern(c.line)
		if err != nil || got != c.want {
			t.Errorf("parsePattern(%q) = %+v, %v; want %+v", c.line, got, err, c.want)
			continue
		}
		if back, err := parsePattern(got.String()); err != nil || back != got {
			t.Errorf("%q: String %q reads back as %+v, %v", c.line, got.String(), back, err)
		}
	}
	for _, line := range []string{"=x", " = x", "x=", "x= ", "Code=x", "code review=x", "agc-validate=x", "a/=x", ""} {
		if p, err := parsePattern(line); err == nil {
			t.Errorf("parsePattern(%q) = %+v, want an error", line, p)
		}
	}
}

// FuzzParsePattern: the pairing-line parser never panics; what it accepts
// names a file and a gate agc-action posts (or none), and writing it back
// (String) reads back as the same pattern.
func FuzzParsePattern(f *testing.F) {
	for _, s := range []string{"review.md", "code-review=review.md", " a = b ", `a\=b`, "a=b=c", `x=\=`, "=x", "x=", "Code=x",
		"agc-validate=x", `a\\=b`, "gate-admission/a1=r/*.json", "a\n::error::x=y", "\u202e=x", "#comment"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		p, err := parsePattern(line)
		if err != nil {
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("error with a line break for %q: %q", line, err)
			}
			return
		}
		if p.glob == "" {
			t.Fatalf("%q: accepted glob %q", line, p.glob)
		}
		if p.gate != "" {
			if err := agc.CheckGateID(p.gate); err != nil || p.gate == "agc-validate" {
				t.Fatalf("%q: accepted gate %q (%v)", line, p.gate, err)
			}
		}
		back, err := parsePattern(p.String())
		if err != nil || back != p {
			t.Fatalf("%q → %+v → %q → %+v, %v", line, p, p.String(), back, err)
		}
	})
}
