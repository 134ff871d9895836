package collect

import (
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
)

func TestParsePattern(t *testing.T) {
	ok := []struct {
		line string
		want Pattern
	}{
		{"review.md", Pattern{Glob: "review.md"}},
		{"code-review=review.md", Pattern{Gate: "code-review", Glob: "review.md"}},
		{"  code-review =  out/**/*.md ", Pattern{Gate: "code-review", Glob: "out/**/*.md"}},
		{"gate-admission/a1b2c=receipts/*.json", Pattern{Gate: "gate-admission/a1b2c", Glob: "receipts/*.json"}},
		{"lint=out/a=b.json", Pattern{Gate: "lint", Glob: "out/a=b.json"}},
		{`lint=out/a\=b.json`, Pattern{Gate: "lint", Glob: "out/a=b.json"}},
		{`out/a\=b.json`, Pattern{Glob: "out/a=b.json"}},
		{`\=x`, Pattern{Glob: "=x"}},
		{"lint=/abs/path.sarif", Pattern{Gate: "lint", Glob: "/abs/path.sarif"}},
		{`a\\=b`, Pattern{Glob: `a\=b`}},
	}
	for _, c := range ok {
		got, err := ParsePattern(c.line)
		if err != nil || got != c.want {
			t.Errorf("ParsePattern(%q) = %+v, %v; want %+v", c.line, got, err, c.want)
			continue
		}
		if back, err := ParsePattern(got.String()); err != nil || back != got {
			t.Errorf("%q: String %q reads back as %+v, %v", c.line, got.String(), back, err)
		}
	}
	for _, line := range []string{"=x", " = x", "x=", "x= ", "Code=x", "code review=x", "agc-validate=x", "a/=x", ""} {
		if p, err := ParsePattern(line); err == nil {
			t.Errorf("ParsePattern(%q) = %+v, want an error", line, p)
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
		p, err := ParsePattern(line)
		if err != nil {
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("error with a line break for %q: %q", line, err)
			}
			return
		}
		if p.Glob == "" {
			t.Fatalf("%q: accepted glob %q", line, p.Glob)
		}
		if p.Gate != "" {
			if err := agc.CheckGateID(p.Gate); err != nil || p.Gate == "agc-validate" {
				t.Fatalf("%q: accepted gate %q (%v)", line, p.Gate, err)
			}
		}
		back, err := ParsePattern(p.String())
		if err != nil || back != p {
			t.Fatalf("%q → %+v → %q → %+v, %v", line, p, p.String(), back, err)
		}
	})
}

// TestParseArg: an argument of agc-sarif github is read as the Action reads
// a line, and one the Action would refuse is a file name as it is.
func TestParseArg(t *testing.T) {
	for _, c := range []struct {
		arg  string
		want Pattern
	}{
		{"review=out/review.json", Pattern{Gate: "review", Glob: "out/review.json"}},
		{"lint/eslint=a=b.sarif", Pattern{Gate: "lint/eslint", Glob: "a=b.sarif"}},
		{`lint=out/a\=b.json`, Pattern{Gate: "lint", Glob: "out/a=b.json"}},
		{"out/review.json", Pattern{Glob: "out/review.json"}},
		{"./a=b.json", Pattern{Glob: "./a=b.json"}},       // "./a" is no gate id
		{"Review=x.json", Pattern{Glob: "Review=x.json"}}, // upper case is no gate id
		{"agc-validate=x.json", Pattern{Glob: "agc-validate=x.json"}},
		{"review=", Pattern{Glob: "review="}},
		{"=x.json", Pattern{Glob: "=x.json"}},
		{"-", Pattern{Glob: "-"}},
	} {
		if got := ParseArg(c.arg); got != c.want {
			t.Errorf("ParseArg(%q) = %+v, want %+v", c.arg, got, c.want)
		}
	}
}
