package validate

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
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
	files, err := filepath.Glob(filepath.Join(rulesDir, "*.json*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures in %s", rulesDir)
	}
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
				if rule.Severity == Error && !HasErrors(vs) {
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
	files, _ := filepath.Glob(filepath.Join(rulesDir, "*.json*"))
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
		if r.Class == ClassTooLarge {
			continue // TestTooLarge: a fixture over 64 MiB does not belong in the repository
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
	files, _ := filepath.Glob("../fixtures/agc/valid/*.json")
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
