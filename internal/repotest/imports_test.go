package repotest

import (
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

// TestOnlyPostersImportGHAPI keeps docs/architecture.md's import rules:
// only the packages that post to GitHub import ghapi, and the pure
// packages import no edge package.
func TestOnlyPostersImportGHAPI(t *testing.T) {
	all := imports(t)
	if len(all) < 20 {
		t.Fatalf("found only %d packages under %s", len(all), root)
	}
	posters := []string{"internal/action", "internal/cli"}
	pure := []string{"agc", "diag", "schema", "validate", "render", "extract", "sarif", "formats", "bridge", "carry", "review", "rounds", "decide", "rdf", "udiff", "textedit"}
	for pkg, deps := range all {
		for _, dep := range deps {
			if dep == "ghapi" && !slices.Contains(posters, pkg) {
				t.Errorf("%s imports ghapi; only %v post to GitHub", pkg, posters)
			}
			if slices.Contains(pure, pkg) && (strings.HasPrefix(dep, "internal/") || strings.HasPrefix(dep, "ghapi") || dep == "fingerprint/gittest") {
				t.Errorf("pure package %s imports the edge package %s", pkg, dep)
			}
		}
	}
	for _, p := range append(posters, pure...) {
		if _, ok := all[p]; !ok {
			t.Errorf("no package %s: update the rule and docs/architecture.md", p)
		}
	}
}
