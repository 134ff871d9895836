package validate

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/agcgate/agc-action/internal/testkit"
)

const rulesDir = "../fixtures/agc/rules"

// ruleOfFixture reads the rule class a fixture is about from its name:
// fail.<CLASS>.<what>.json, pass.<CLASS>…, chain-fail.<CLASS>…, chain-pass.<CLASS>….
func ruleOfFixture(t *testing.T, name string) (kind, class string) {
	kind, rest, _ := strings.Cut(name, ".")
	best := ""
	for _, r := range rules {
		if strings.HasPrefix(rest, r.Class+".") && len(r.Class) > len(best) {
			best = r.Class
		}
	}
	if best == "" {
		t.Fatalf("%s: no rule class in the name", name)
	}
	return kind, best
}

func TestRuleFixtures(t *testing.T) {
	files := testkit.Glob(t, filepath.Join(rulesDir, "*.json*"))
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			kind, class := ruleOfFixture(t, name)
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			opts := Options{Chain: strings.HasPrefix(kind, "chain-")}
			vs := Inputs([]Input{{File: name, Data: data}}, opts)
			got := rulesOf(vs)
			switch kind {
			case "fail", "chain-fail":
				if !got[class] {
					t.Errorf("want a %s violation, got:\n%s", class, list(vs))
				}
				rule, _ := RuleFor(class)
				if rule.Severity == SeverityError && !HasErrors(vs) {
					t.Errorf("a broken MUST rule must fail validation")
				}
			case "pass", "chain-pass":
				if HasErrors(vs) || got[class] {
					t.Errorf("want no errors and no %s, got:\n%s", class, list(vs))
				}
			default:
				t.Fatalf("fixture name %q starts with neither fail, pass, chain-fail nor chain-pass", name)
			}
			for _, v := range vs {
				if v.File == "" || v.Rule == "" || v.Section == "" || v.Message == "" {
					t.Errorf("violation without a place or a name: %+v", v)
				}
			}
		})
	}
}

// TestEveryRuleHasFixtures keeps the fixture set complete: each rule class
// is broken by one fixture and passed by another.
func TestEveryRuleHasFixtures(t *testing.T) {
	files := testkit.Glob(t, filepath.Join(rulesDir, "*.json*"))
	fail, pass := map[string]bool{}, map[string]bool{}
	for _, f := range files {
		kind, class := ruleOfFixture(t, filepath.Base(f))
		if strings.HasSuffix(kind, "fail") {
			fail[class] = true
		} else {
			pass[class] = true
		}
	}
	for _, r := range rules {
		switch r.Class {
		case ClassTooLarge:
			continue // TestTooLarge: a fixture over 64 MiB does not belong in the repository
		case ClassPairing:
			continue // about the workflow's inputs, not an answer: internal/action tests it
		}
		if !fail[r.Class] || !pass[r.Class] {
			t.Errorf("rule %s: failing fixture %v, passing fixture %v", r.Class, fail[r.Class], pass[r.Class])
		}
	}
}

func TestTooLarge(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(rulesDir, "pass.schema.base.json"))
	if err != nil {
		t.Fatal(err)
	}
	vs := Bytes("base.json", data, agc.Limits{MaxBytes: 100})
	if len(vs) != 1 || vs[0].Rule != ClassTooLarge {
		t.Fatalf("want one %s violation, got:\n%s", ClassTooLarge, list(vs))
	}
	if vs := Bytes("base.json", data, agc.Limits{MaxBytes: int64(len(data))}); HasErrors(vs) {
		t.Fatalf("a file exactly at the limit must pass, got:\n%s", list(vs))
	}
}

func TestValidFixturesAreClean(t *testing.T) {
	files := testkit.Glob(t, "../fixtures/agc/valid/*.json")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if vs := Bytes(f, data, agc.Limits{}); HasErrors(vs) {
			t.Errorf("%s:\n%s", f, list(vs))
		}
	}
}

func rulesOf(vs []Violation) map[string]bool {
	m := map[string]bool{}
	for _, v := range vs {
		m[v.Rule] = true
	}
	return m
}

func list(vs []Violation) string {
	var lines []string
	for _, v := range vs {
		lines = append(lines, "  "+v.String())
	}
	sort.Strings(lines)
	if len(lines) == 0 {
		return "  (none)"
	}
	return strings.Join(lines, "\n")
}

// TestRulesDocumented keeps docs/rules.md in step with the rule table.
func TestRulesDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rules {
		row := "| `" + r.Class + "` | " + r.Section + " | " + r.Severity.String() + " |"
		if !strings.Contains(string(doc), row) {
			t.Errorf("docs/rules.md has no row %q", row)
		}
	}
}

// TestViolationPlace: every violation names the line and column of its
// pointer in the file, for a lone response, a response in an array and
// one on a line of JSON Lines; a missing member is placed at its object.
func TestViolationPlace(t *testing.T) {
	base, err := os.ReadFile(filepath.Join(rulesDir, "pass.schema.base.json"))
	if err != nil {
		t.Fatal(err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, base); err != nil {
		t.Fatal(err)
	}
	one := strings.Replace(compact.String(), `"verdict":"block"`, `"verdict":"maybe"`, 1)
	noVersion := strings.Replace(compact.String(), `"version":`, `"x-version":`, 1)
	cases := []struct {
		name, data string
		want       []string // the place text of each violation
	}{
		{"object", "\n" + one, []string{"f:2:227: /verdict: "}},
		{"array", "[\n" + noVersion + ",\n  " + one + "\n]", []string{"f:2:21: /0/gate: ", "f:2:72: /0/gate/x-version: ", "f:3:229: /1/verdict: "}},
		{"json lines", compact.String() + "\n" + one + "\n", []string{"f:2:227: /verdict: "}},
		{"syntax", "{\n\"agc\": }", []string{"f:2:8: /agc: "}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			vs := Bytes("f", []byte(c.data), agc.Limits{})
			if len(vs) != len(c.want) {
				t.Fatalf("got %d violations, want %d: %v", len(vs), len(c.want), vs)
			}
			for i, v := range vs {
				if !strings.HasPrefix(v.String(), c.want[i]) || v.Column == 0 {
					t.Errorf("violation %d = %s, want it to start with %s and name a column", i, v, c.want[i])
				}
				at := diag.At([]byte(c.data), v.Offset)
				if at.Line != v.Line || at.Column != v.Column {
					t.Errorf("violation %d: offset %d is %d:%d, not %d:%d", i, v.Offset, at.Line, at.Column, v.Line, v.Column)
				}
			}
		})
	}
}

// TestIsLineOnly: a bare line number is a location with nothing but a
// line in it (§7); a path or symbol with a position names its place.
func TestIsLineOnly(t *testing.T) {
	for _, tc := range []struct {
		loc  string
		bare bool
	}{
		{"12", true}, {"12:3", true}, {"12-14", true}, {"line 12", true}, {"Line12", true}, {"LINE\t7", true},
		{"l12", true}, {"L12", true}, {"line  12-3", true}, {":12", true}, {"#L12", true}, {"#L12-L14", true},
		{"a.go:12", false}, {"a.go#L12", false}, {"a.go#L12-L14", false}, {"a.go:12:3", false},
		{"a.go:12:3-14:1", false}, {"m.go:2-4", false}, {"C:/x/app.js:1:5", false}, {"a.go#Func12", false},
		{"a.go", false}, {"", false}, {"x-12", false}, {"12a", false}, {"pkg/f.go#12", false}, {"é12", false},
		{"e12", false}, {"x e12", false}, {"x\f12", false}, {"Bash.command", false},
	} {
		if got := isLineOnly(tc.loc); got != tc.bare {
			t.Errorf("isLineOnly(%q) = %v, want %v", tc.loc, got, tc.bare)
		}
	}
}

// TestIDForm: the recommended id names the gate, the class and the
// location, or, since a position moves and an id must not (§7), the
// location's place; "@" and a stable suffix, or "~N", may follow.
func TestIDForm(t *testing.T) {
	for _, tc := range []struct {
		id, loc string
		ok      bool
		want    string
	}{
		{"g/c/a.go#Open", "a.go#Open", true, "g/c/a.go#Open"},
		{"g/c/a.go#Open@1a2b", "a.go#Open", true, "g/c/a.go#Open"},
		{"g/c/a.go:12", "a.go:12", true, "g/c/a.go:12"},
		{"g/c/a.go", "a.go:12:5-12:9", true, "g/c/a.go"},
		{"g/c/a.go@c0ec9b580a4c", "a.go:3-4", true, "g/c/a.go"},
		{"g/c/a.go@c0ec9b580a4c~3", "a.go:3-4", true, "g/c/a.go"},
		{"g/c/a.go~2", "a.go:3", true, "g/c/a.go"},
		{"g/c/a.gox", "a.go:3", false, "g/c/a.go"},
		{"g/c/b.go@1", "a.go:3", false, "g/c/a.go"},
		{"UE-0001", "a.go#Open", false, "g/c/a.go#Open"},
		{"g/x/a.go", "a.go", false, "g/c/a.go"},
	} {
		ok, want := idForm(tc.id, "g", "c", tc.loc)
		if ok != tc.ok || want != tc.want {
			t.Errorf("idForm(%q, %q) = %v, %q; want %v, %q", tc.id, tc.loc, ok, want, tc.ok, tc.want)
		}
	}
}
