package repotest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/internal/action"
	"go.yaml.in/yaml/v4"
)

// stepInputs are the inputs the composite step's own shell reads, from
// the variable named, instead of agc-sarif: forwarded, never read in Go.
var stepInputs = map[string]string{"image": "AGC_IMAGE"}

// inputVar is the variable an input reaches agc-sarif in, as the runner
// names it for a Docker or JavaScript action and go-githubactions reads
// it: INPUT_ and the name in upper case, spaces as _, hyphens kept.
func inputVar(name string) string {
	return "INPUT_" + strings.ToUpper(strings.ReplaceAll(name, " ", "_"))
}

var (
	inputRef   = regexp.MustCompile(`inputs\.([A-Za-z0-9_-]+)`)
	inputCells = regexp.MustCompile("`([^`]+)`")
)

// checkInputs returns every way the four homes of the Action's inputs
// disagree: action.yml's inputs, the composite step's env forwarding each
// as INPUT_<NAME>, the names agc-sarif reads (goNames) and the README's
// Inputs table.
func checkInputs(actionYML, readme []byte, goNames []string) []string {
	var probs []string
	add := func(format string, args ...any) { probs = append(probs, fmt.Sprintf(format, args...)) }
	var a struct {
		Inputs map[string]any `yaml:"inputs"`
		Runs   struct {
			Steps []struct {
				Env map[string]string `yaml:"env"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(actionYML, &a); err != nil {
		return []string{"action.yml: " + err.Error()}
	}
	declared := func(n string) bool { _, ok := a.Inputs[n]; return ok }
	forwarded := map[string]bool{}
	for _, st := range a.Runs.Steps {
		for k, v := range st.Env {
			for _, m := range inputRef.FindAllStringSubmatch(v, -1) {
				n := m[1]
				want := cmpOr(stepInputs[n], inputVar(n))
				switch {
				case !declared(n):
					add("action.yml: env %s forwards input %q, which inputs: does not declare", k, n)
				case k != want:
					add("action.yml: env %s forwards input %q, which is read as %s", k, n, want)
				case v != "${{ inputs."+n+" }}":
					add("action.yml: env %s is %q: forward the input as it is given, ${{ inputs.%s }}", k, v, n)
				default:
					forwarded[n] = true
				}
			}
		}
	}
	rows, err := readmeInputs(readme)
	if err != nil {
		add("README.md: %v", err)
	}
	for _, n := range sortedKeys(a.Inputs) {
		if !forwarded[n] {
			add("action.yml: input %q is not forwarded: the step's env has no %s: ${{ inputs.%s }}", n, cmpOr(stepInputs[n], inputVar(n)), n)
		}
		if _, step := stepInputs[n]; !step && !slices.Contains(goNames, n) {
			add("action.yml: input %q is declared, but agc-sarif never reads it (internal/action.InputNames)", n)
		}
		if err == nil && !slices.Contains(rows, n) {
			add("README.md: the Inputs table has no row for input %q", n)
		}
	}
	for _, n := range goNames {
		if !declared(n) {
			add("internal/action.InputNames: agc-sarif reads input %q, which action.yml does not declare", n)
		}
	}
	for _, n := range rows {
		if !declared(n) {
			add("README.md: the Inputs table's row %q names no input of action.yml", n)
		}
	}
	return probs
}

// readmeInputs returns the names in the first cells of the README's
// Inputs table (a cell may name several: `pull-request`, `sha`).
func readmeInputs(readme []byte) ([]string, error) {
	_, after, ok := strings.Cut(string(readme), "\n### Inputs\n")
	if !ok {
		return nil, fmt.Errorf("no section ### Inputs")
	}
	var names []string
	inTable := false
	for _, line := range strings.Split(after, "\n") {
		if !strings.HasPrefix(line, "|") {
			if inTable {
				break
			}
			continue
		}
		inTable = true
		cells := strings.Split(line, "|")
		if len(cells) < 3 || strings.TrimSpace(cells[1]) == "input" || strings.HasPrefix(strings.TrimSpace(cells[1]), "---") {
			continue
		}
		for _, m := range inputCells.FindAllStringSubmatch(cells[1], -1) {
			names = append(names, m[1])
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("the Inputs table names no input")
	}
	return names, nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func readRoot(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestActionInputs is issue 24, item 8: an input of action.yml is
// forwarded by the composite step as INPUT_<NAME>, read by agc-sarif, and
// has its row in the README's Inputs table; nothing reads or documents an
// input action.yml does not declare.
func TestActionInputs(t *testing.T) {
	for _, p := range checkInputs([]byte(readRoot(t, "action.yml")), []byte(readRoot(t, "README.md")), action.InputNames) {
		t.Error(p)
	}
}

// TestActionInputsCatchesDrift proves TestActionInputs can fail: each
// mutated copy of action.yml, the README or the names agc-sarif reads
// draws the problems named.
func TestActionInputsCatchesDrift(t *testing.T) {
	yml, readme := readRoot(t, "action.yml"), readRoot(t, "README.md")
	const newInput = "inputs:\n  new-thing:\n    description: a new input\n    required: false\n    default: \"\"\n"
	replace := func(s, old, new string) string {
		t.Helper()
		if !strings.Contains(s, old) {
			t.Fatalf("the mutation's text %q is gone: update this test", old)
		}
		return strings.Replace(s, old, new, 1)
	}
	budgetRow := regexp.MustCompile("(?m)^\\| `budget` \\|.*\n")
	for _, tc := range []struct {
		name         string
		yml, readme  string
		goNames      []string
		wantProblems []string
	}{
		{"an input added to action.yml alone", replace(yml, "inputs:\n", newInput), readme, action.InputNames, []string{
			`input "new-thing" is not forwarded: the step's env has no INPUT_NEW-THING`,
			`input "new-thing" is declared, but agc-sarif never reads it`,
			`the Inputs table has no row for input "new-thing"`,
		}},
		{"an input added and read, not forwarded", replace(yml, "inputs:\n", newInput), readme, append(slices.Clone(action.InputNames), "new-thing"), []string{
			`input "new-thing" is not forwarded`,
			`the Inputs table has no row for input "new-thing"`,
		}},
		{"a forward removed", replace(yml, "        INPUT_CHECK: ${{ inputs.check }}\n", ""), readme, action.InputNames, []string{
			`input "check" is not forwarded: the step's env has no INPUT_CHECK: ${{ inputs.check }}`,
		}},
		{"a forward named with _ for -", replace(yml, "INPUT_FAIL-ON:", "INPUT_FAIL_ON:"), readme, action.InputNames, []string{
			`env INPUT_FAIL_ON forwards input "fail-on", which is read as INPUT_FAIL-ON`,
			`input "fail-on" is not forwarded`,
		}},
		{"a forward through an expression", replace(yml, "${{ inputs.review }}", "${{ inputs.review || 'auto' }}"), readme, action.InputNames, []string{
			`env INPUT_REVIEW is "${{ inputs.review || 'auto' }}"`,
			`input "review" is not forwarded`,
		}},
		{"a forward of an undeclared input", replace(yml, "        INPUT_CHECK:", "        INPUT_GHOST: ${{ inputs.ghost }}\n        INPUT_CHECK:"), readme, action.InputNames, []string{
			`env INPUT_GHOST forwards input "ghost", which inputs: does not declare`,
		}},
		{"agc-sarif reads an undeclared input", yml, readme, append(slices.Clone(action.InputNames), "ghost"), []string{
			`agc-sarif reads input "ghost", which action.yml does not declare`,
		}},
		{"agc-sarif stops reading a declared input", yml, readme, slices.DeleteFunc(slices.Clone(action.InputNames), func(n string) bool { return n == "login" }), []string{
			`input "login" is declared, but agc-sarif never reads it`,
		}},
		{"a README row removed", yml, budgetRow.ReplaceAllString(readme, ""), action.InputNames, []string{
			`the Inputs table has no row for input "budget"`,
		}},
		{"a README row for no input", yml, replace(readme, "| `agc` |", "| `fail-when` | | fails |\n| `agc` |"), action.InputNames, []string{
			`the Inputs table's row "fail-when" names no input of action.yml`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := checkInputs([]byte(tc.yml), []byte(tc.readme), tc.goNames)
			for _, want := range tc.wantProblems {
				if !slices.ContainsFunc(got, func(p string) bool { return strings.Contains(p, want) }) {
					t.Errorf("no problem says %q; got:\n%s", want, strings.Join(got, "\n"))
				}
			}
			if len(got) != len(tc.wantProblems) {
				t.Errorf("%d problems, want %d:\n%s", len(got), len(tc.wantProblems), strings.Join(got, "\n"))
			}
		})
	}
}
