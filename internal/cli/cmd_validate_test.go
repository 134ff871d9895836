package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/internal/testkit"
	"github.com/agcgate/agc-action/validate"
)

const rules = "../../fixtures/agc/rules/"

func TestValidateGolden(t *testing.T) {
	t.Chdir(rules) // file names in the output stay short and stable
	cases := []struct {
		name string
		args []string
		code int
	}{
		{"valid", []string{"pass.schema.base.json"}, ExitOK},
		{"lint-only", []string{"fail.L7.id-form.json", "fail.L5.scope.json"}, ExitOK},
		{"errors", []string{"fail.V6.block-all-repairable.json", "fail.schema.string-for-object.json", "fail.json.duplicate-key.verdict.json", "fail.V7.1.payload.decide-one-option.json"}, ExitFail},
		{"chain", []string{"--chain", "chain-fail.V9.chain-order.attempt-n.json"}, ExitFail},
		{"chain-jsonl", []string{"--chain", "chain-pass.V9.chain-order.jsonl"}, ExitOK},
	}
	for _, c := range cases {
		for _, format := range []string{"text", "json", "agc", "sarif"} {
			t.Run(c.name+"."+format, func(t *testing.T) {
				args := append([]string{"validate", "--format", format}, c.args...)
				code, out, errs := run(t, "", args...)
				if code != c.code {
					t.Fatalf("exit %d, want %d; stderr:\n%s", code, c.code, errs)
				}
				ext := map[string]string{"text": ".txt", "json": ".json", "agc": ".agc.json", "sarif": ".sarif"}[format]
				golden(t, "validate/"+c.name+ext, []byte(out))
			})
		}
	}
}

// TestValidateAGCOutputIsValid: the validator's own answer passes the
// validator, and its verdict follows the errors.
func TestValidateAGCOutputIsValid(t *testing.T) {
	files := testkit.Glob(t, rules+"*.json")
	for _, f := range files {
		code, out, errs := run(t, "", "validate", "--format", "agc", f)
		if code == ExitUsage {
			t.Fatalf("%s: %s", f, errs)
		}
		vs := validate.Bytes("out.json", []byte(out), agc.Limits{})
		if validate.HasErrors(vs) {
			t.Errorf("%s: the validator's own AGC answer is invalid:\n%v", f, vs)
		}
		r, err := agc.Decode("out.json", []byte(out), agc.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if (code == ExitFail) != (r.Verdict == agc.Block) {
			t.Errorf("%s: exit %d with verdict %s", f, code, r.Verdict)
		}
	}
}

func TestValidateAttemptAtBudgetEscalates(t *testing.T) {
	code, out, _ := run(t, "", "validate", "--format", "agc", "--attempt", "3/3", rules+"fail.V6.allow-no-blocking.json")
	if code != ExitFail {
		t.Fatalf("exit %d", code)
	}
	r, err := agc.Decode("out", []byte(out), agc.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != agc.Escalate {
		t.Fatalf("verdict %s at the budget, want escalate", r.Verdict)
	}
	if vs := validate.Bytes("out", []byte(out), agc.Limits{}); validate.HasErrors(vs) {
		t.Fatalf("invalid: %v", vs)
	}
}

// TestValidateHostileInputs: each gives exit 1 or 2 with one line naming
// the place, and never a panic.
func TestValidateHostileInputs(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	huge := bytes.Repeat([]byte(" "), 100<<20)
	copy(huge, `{"agc":"0.1"}`)
	cases := []struct {
		name, file string
		code       int
		want       string
	}{
		{"empty", write("empty.json", nil), ExitFail, "empty.json:1:1: error: no-response (§3): the input is empty"},
		{"null", write("null.json", []byte("null")), ExitFail, "null.json:1:1: error: schema (§3): expected an object, got null"},
		{"100MB", write("huge.json", huge), ExitFail, "huge.json:1:67108865: error: json.too-large"},
		{"deep", write("deep.json", []byte(strings.Repeat("[", 10000)+strings.Repeat("]", 10000))), ExitFail, "deep.json:1:129: /0/0/0/0"},
		{"utf8", write("utf8.json", []byte("{\"agc\":\"0.1\xff\"}")), ExitFail, "utf8.json:1:12: /agc: error: json.syntax (§3): invalid UTF-8"},
		{"dup", write("dup.json", []byte(`{"verdict":"block","verdict":"allow"}`)), ExitFail, `dup.json:1:20: /verdict: error: json.duplicate-key (§3): member "verdict" appears twice`},
		{"string-for-object", write("s.json", []byte(`{"agc":"0.1","gate":"lint"}`)), ExitFail, "s.json:1:21: /gate: error: schema (§4)"},
		{"missing", filepath.Join(dir, "nope.json"), ExitUsage, "nope.json: no such file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := run(t, "", "validate", c.file)
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout: %.500s\nstderr: %s", code, c.code, out, errs)
			}
			if !strings.Contains(out+errs, c.want) {
				t.Fatalf("output does not contain %q:\n%.2000s%s", c.want, out, errs)
			}
		})
	}
}

func TestValidateUsage(t *testing.T) {
	for _, args := range [][]string{
		{"validate"},
		{"validate", "--format", "yaml", "x.json"},
		{"validate", "--attempt", "0/3", "x.json"},
		{"validate", "--bogus", "x.json"},
	} {
		if code, _, errs := run(t, "", args...); code != ExitUsage || errs == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
	if code, out, _ := run(t, `{"agc":"0.1"}`, "validate", "-"); code != ExitFail || !strings.Contains(out, "<stdin>") {
		t.Errorf("stdin: exit %d, out %s", code, out)
	}
}

func TestParseArgsDoubleDash(t *testing.T) {
	e := &Env{Stderr: &bytes.Buffer{}}
	cases := []struct {
		args []string
		pos  []string
		flag bool
	}{
		{[]string{"-x", "a", "b"}, []string{"a", "b"}, true},
		{[]string{"a", "-x", "b"}, []string{"a", "b"}, true},
		{[]string{"-x", "--", "-c", "b"}, []string{"-c", "b"}, true},
		{[]string{"a", "--", "-x"}, []string{"a", "-x"}, false},
		{[]string{"--", "-x"}, []string{"-x"}, false},
	}
	for _, c := range cases {
		fs := newFlags(e, "t", "")
		x := fs.Bool("x", false, "")
		pos, _, ok := parseArgs(fs, c.args)
		if !ok || strings.Join(pos, " ") != strings.Join(c.pos, " ") || *x != c.flag {
			t.Errorf("%q: pos %q x=%v ok=%v, want %q x=%v", c.args, pos, *x, ok, c.pos, c.flag)
		}
	}
}

// TestValidateUnreadableDoesNotHideOthers: a missing file exits 2, and the
// other files' violations are still reported.
func TestValidateUnreadableDoesNotHideOthers(t *testing.T) {
	code, out, errs := run(t, "", "validate", rules+"fail.V6.allow-no-blocking.json", filepath.Join(t.TempDir(), "missing.json"))
	if code != ExitUsage || !strings.Contains(errs, "missing.json") || !strings.Contains(out, "V6.allow-no-blocking") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out, errs)
	}
}
