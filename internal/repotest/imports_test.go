package repotest

import (
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/agcgate/agc-action/"

// imports lists, for every package directory of the module, the module
// packages its non-test files import.
func imports(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "tools" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() && path != root {
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // a module of its own (scripts/bench/floor)
			}
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if dep, ok := strings.CutPrefix(p, module); ok && !slices.Contains(out[pkg], dep) {
				out[pkg] = append(out[pkg], dep)
			}
		}
		if _, ok := out[pkg]; !ok {
			out[pkg] = nil
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// layers are docs/architecture.md's layers ("Who may import whom"), from
// the bottom up. A package imports packages of its own layer or of the
// layers below it; a package of the module not listed here fails the test,
// so a new package is placed before it is used.
var layers = []struct {
	name string
	pkgs []string
}{
	{"leaves", []string{"diag", "agc", "internal/logsafe"}},
	{"pure middle", []string{"schema", "validate", "render", "extract", "sarif", "formats", "bridge", "rdf", "udiff", "textedit", "subject", "carry", "review", "rounds", "decide"}},
	{"edges", []string{"fingerprint", "ghapi", "internal/ghrun", "internal/cmdenv", "internal/collect"}},
	{"pipeline", []string{"deliver"}},
	{"top", []string{"internal/action", "internal/cli"}},
	{"cmd", []string{"cmd/agc-sarif"}},
	// Test-only packages are imported by tests alone (the test scans
	// non-test files), and may import any package. (internal/fixertest
	// holds test files only.)
	{"test-only", []string{"internal/testkit", "internal/golden", "internal/agctest", "internal/modelserver", "internal/prfixture",
		"internal/peertest", "internal/repotest", "internal/logsafe/logsafetest",
		"fingerprint/gittest", "sarif/sariftest", "ghapi/ghtest"}},
}

// forbidden are the imports the layers allow but the design does not.
var forbidden = []struct{ pkg, dep, why string }{
	{"internal/cli", "internal/action", "the commands do not import the Action: cmd/agc-sarif passes it in (cmdenv.Env.Action)"},
	{"internal/collect", "ghapi", "collecting the inputs reads files it is given, never GitHub"},
	{"internal/cmdenv", "ghapi", "what the commands and the Action share posts nothing"},
	{"internal/ghrun", "ghapi", "the run context is read from the environment, not from GitHub"},
}

// ghapiMayImport are the packages of the module ghapi, the GitHub client,
// may import: it posts what it is given and plans nothing.
var ghapiMayImport = []string{"agc", "internal/logsafe"}

// knownDebts are imports the rules above refuse that the code still has,
// each a step of issue 25 not yet taken. The test fails on an import
// neither the rules nor this list allow, and on an entry the code no
// longer needs, so the list only shrinks.
var knownDebts = []struct{ pkg, dep, why string }{}

// TestLayering keeps docs/architecture.md's import rules ("Who may import
// whom"): no package imports one placed above it or one not placed at all;
// the commands do not import the Action; only the packages that post to
// GitHub (deliver, internal/action, internal/cli) import ghapi, and ghapi imports
// only agc and the logging guard; every exception is a known debt.
func TestLayering(t *testing.T) {
	all := imports(t)
	if len(all) < 20 {
		t.Fatalf("found only %d packages under %s", len(all), root)
	}
	layer := map[string]int{}
	for i, l := range layers {
		for _, p := range l.pkgs {
			if _, dup := layer[p]; dup {
				t.Errorf("%s is placed twice", p)
			}
			layer[p] = i
			if _, ok := all[p]; !ok {
				t.Errorf("no package %s: update the layers and docs/architecture.md", p)
			}
		}
	}
	posters := []string{"deliver", "internal/action", "internal/cli"}
	debts := map[[2]string]bool{}
	for _, d := range knownDebts {
		debts[[2]string{d.pkg, d.dep}] = true
	}
	used := map[[2]string]bool{}
	for pkg, deps := range all {
		lp, ok := layer[pkg]
		if !ok {
			t.Errorf("package %s is in no layer: place it in docs/architecture.md and in layers", pkg)
			continue
		}
		for _, dep := range deps {
			var broken []string
			ld, ok := layer[dep]
			switch {
			case !ok:
				broken = append(broken, fmt.Sprintf("%s is in no layer", dep))
			case ld > lp:
				broken = append(broken, fmt.Sprintf("%s (%s) is above %s (%s)", dep, layers[ld].name, pkg, layers[lp].name))
			}
			for _, f := range forbidden {
				if f.pkg == pkg && f.dep == dep {
					broken = append(broken, f.why)
				}
			}
			if dep == "ghapi" && !slices.Contains(posters, pkg) {
				broken = append(broken, fmt.Sprintf("only %v post to GitHub", posters))
			}
			if pkg == "ghapi" && !slices.Contains(ghapiMayImport, dep) {
				broken = append(broken, fmt.Sprintf("ghapi imports only %v", ghapiMayImport))
			}
			if len(broken) == 0 {
				continue
			}
			if debts[[2]string{pkg, dep}] {
				used[[2]string{pkg, dep}] = true
				continue
			}
			t.Errorf("%s imports %s: %s", pkg, dep, strings.Join(broken, "; "))
		}
	}
	for _, d := range knownDebts {
		if !used[[2]string{d.pkg, d.dep}] {
			t.Errorf("known debt %s -> %s is paid (or allowed): remove it from knownDebts", d.pkg, d.dep)
		}
	}
}
