// Package fixertest runs real fixers (eslint with eslint-formatter-rdjson,
// prettier, gofmt) on a pull request, converts their output (rdjson, diffs)
// to AGC, places it with package review as the Action does, applies every
// suggestion as GitHub would (the commented lines replaced) and compares
// the file with what the fixer itself writes.
package fixertest

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/formats"
	"github.com/agcgate/agc-action/internal/testkit"
	"github.com/agcgate/agc-action/review"
)

// pr is a pull request in a git repository: base and head commits of one
// file; the workspace holds the head.
type pr struct {
	dir, path, head string
}

func newPR(t *testing.T, path, base, head string, extra map[string]string) *pr {
	t.Helper()
	dir := t.TempDir()
	for name, data := range extra {
		write(t, filepath.Join(dir, name), data)
	}
	git := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t.invalid", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	git("init", "-q")
	write(t, filepath.Join(dir, path), base)
	git("add", "-A")
	git("commit", "-qm", "base")
	write(t, filepath.Join(dir, path), head)
	git("commit", "-qam", "head")
	return &pr{dir: dir, path: path, head: head}
}

func write(t *testing.T, p, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// diffs is the pull request's file as GitHub lists it: its patch from "@@".
func (p *pr) diffs(t *testing.T) map[string]*review.FileDiff {
	cmd := exec.Command("git", "diff", "--no-color", "HEAD~1", "HEAD", "--", p.path)
	cmd.Dir = p.dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	patch := string(out)
	patch = patch[strings.Index(patch, "@@"):]
	hunks, err := review.ParsePatch(patch)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]*review.FileDiff{p.path: review.NewFileDiff(p.path, "modified", hunks)}
}

type dirReader string

func (d dirReader) ReadFile(p string) ([]byte, error) {
	return os.ReadFile(filepath.Join(string(d), p))
}

// convert reads a fixer's output in format from as the Action's inputs are.
func (p *pr) convert(t *testing.T, from, name string, data []byte, gate string) *agc.Response {
	t.Helper()
	f, _ := formats.Default().Lookup(from)
	rs, lints, err := f.Read(name, data, formats.ReadOptions{FS: os.DirFS(p.dir), Root: filepath.ToSlash(p.dir), Gate: gate})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lints {
		t.Errorf("lint: %s", l)
	}
	if len(rs) != 1 {
		t.Fatalf("%d responses", len(rs))
	}
	return rs[0]
}

// applySuggestions places r's findings on the pull request (filter mode
// added, as the Action's default) and applies every suggestion to the
// head file; it returns the file and how many findings had one.
func (p *pr) applySuggestions(t *testing.T, r *agc.Response) (string, int, []review.Placed) {
	t.Helper()
	placed := review.Place(r, p.diffs(t), dirReader(p.dir), review.FilterAdded)
	var cs []*review.Change
	for _, pl := range placed {
		if pl.Suggest {
			cs = append(cs, pl.Pos.Change)
		}
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].Start < cs[j].Start })
	for i := 1; i < len(cs); i++ {
		if cs[i].Start <= cs[i-1].End {
			t.Fatalf("suggestions on lines %d-%d and %d-%d overlap", cs[i-1].Start, cs[i-1].End, cs[i].Start, cs[i].End)
		}
	}
	lines := strings.SplitAfter(p.head, "\n")
	for i := len(cs) - 1; i >= 0; i-- {
		c := cs[i]
		lines = append(append(append([]string{}, lines[:c.Start-1]...), c.New), lines[c.End:]...)
	}
	return strings.Join(lines, ""), len(cs), placed
}

// run runs a command in dir and returns its standard output; a non-zero
// exit is accepted when okExit says so (linters exit 1 on findings).
func run(t *testing.T, dir string, okExit bool, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var errb strings.Builder
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		if _, exit := err.(*exec.ExitError); !exit || !okExit {
			t.Fatalf("%s %v: %v\n%s", name, args, err, errb.String())
		}
	}
	return out
}

func fixed(t *testing.T, dir, path string, fix func(dir string)) string {
	t.Helper()
	tmp := t.TempDir()
	for _, name := range []string{path, "eslint.config.js"} {
		if data, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
			write(t, filepath.Join(tmp, name), string(data))
		}
	}
	fix(tmp)
	data, err := os.ReadFile(filepath.Join(tmp, path))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

const eslintConfig = `module.exports = [{
  files: ["**/*.js"],
  languageOptions: { sourceType: "commonjs", ecmaVersion: 2022 },
  rules: {
    semi: "error", quotes: ["error", "double"], "dot-notation": "error",
    "object-shorthand": "error", "prefer-const": "error", "no-unused-vars": "warn",
  },
}];
`

// appBase and appHead: the pull request adds lines with one fixable
// problem each (their fixes do not overlap, so one pass of eslint --fix
// applies them all) and one problem eslint cannot fix; the lines it does
// not change have no fixable problem, so the file after every suggestion
// must be exactly what eslint --fix writes.
const (
	appBase = "// app\nconsole.log(\"base\");\n\nfunction keep(x) {\n  return x;\n}\nkeep(1);\n"
	appHead = "// app\nconsole.log(\"base\");\n\nconst name = 'x';\nconst o = { name: name };\nconsole.log(o[\"key\"], name);\n" +
		"let count = 1;\nconsole.log(count)\nfunction unused(a) {\n  return a;\n}\n\nfunction keep(x) {\n  return x;\n}\nkeep(1);\n"
)

func TestESLintFixesBecomeSuggestions(t *testing.T) {
	eslint := testkit.NodeFile(t, "eslint 10.15.0", "eslint", "bin", "eslint.js")
	formatter := testkit.NodeFile(t, "eslint-formatter-rdjson 1.0.6", "eslint-formatter-rdjson", "index.js")
	p := newPR(t, "src/app.js", appBase, appHead, map[string]string{"eslint.config.js": eslintConfig})
	out := run(t, p.dir, true, "node", eslint, "--format", formatter, "src/app.js")
	r := p.convert(t, "rdjson", "eslint.rdjson", out, "")
	if r.Gate.ID != "eslint" {
		t.Errorf("gate %q", r.Gate.ID)
	}
	diffs := p.diffs(t)
	var fixable, onAdded int
	for _, f := range r.Findings {
		if f.Remedy.Kind == agc.RemedyPatch {
			fixable++
			if pos := review.Locate(&f, dirReader(p.dir)); diffs[p.path].AnyAdded(pos.Start, pos.End) {
				onAdded++
			}
		}
	}
	got, suggested, placed := p.applySuggestions(t, r)
	t.Logf("eslint: %d results, %d fixable, %d fixable on added lines, %d suggestions", len(r.Findings), fixable, onAdded, suggested)
	if suggested != onAdded || onAdded < 5 {
		for _, pl := range placed {
			t.Logf("%s %s: %s suggest=%v", pl.Finding.Class, pl.Finding.Location, pl.Channel, pl.Suggest)
		}
		t.Fatalf("%d of %d fixable results on added lines got a suggestion", suggested, onAdded)
	}
	want := fixed(t, p.dir, p.path, func(dir string) { run(t, dir, true, "node", eslint, "--fix", p.path) })
	if got != want {
		t.Errorf("after every suggestion:\n%s\neslint --fix:\n%s", got, want)
	}
}

const (
	fmtBase = "const a = 1;\n"
	fmtHead = "const a = 1;\nconst b = {x:1,\n  y:2}\nfunction f( ){return  a}\n"
)

func TestPrettierDiffBecomesSuggestions(t *testing.T) {
	prettier := testkit.NodeFile(t, "prettier 3.10.1", "prettier", "bin", "prettier.cjs")
	p := newPR(t, "src/fmt.js", fmtBase, fmtHead, nil)
	run(t, p.dir, false, "node", prettier, "--write", p.path)
	diff := run(t, p.dir, false, "git", "diff", "--no-color")
	want, err := os.ReadFile(filepath.Join(p.dir, p.path))
	if err != nil {
		t.Fatal(err)
	}
	run(t, p.dir, false, "git", "checkout", "--", ".")
	r := p.convert(t, "diff", "prettier.diff", diff, "prettier")
	got, n, _ := p.applySuggestions(t, r)
	t.Logf("prettier: %d hunks, %d suggestions", len(r.Findings), n)
	if n == 0 || n != len(r.Findings) || got != string(want) {
		t.Errorf("%d suggestions for %d hunks; after them:\n%s\nprettier:\n%s", n, len(r.Findings), got, want)
	}
}

const (
	goBase = "package x\n\nfunc A() {}\n"
	goHead = "package x\n\nfunc A() {}\n\nfunc  B( ) int {\nreturn 1\n}\nvar c = map[string]int{\"a\":1,\n\"bb\": 2}\n"
)

func TestGofmtDiffBecomesSuggestions(t *testing.T) {
	gofmt, err := exec.LookPath("gofmt")
	if err != nil {
		testkit.Missing(t, "gofmt", err)
	}
	p := newPR(t, "x.go", goBase, goHead, nil)
	diff := run(t, p.dir, true, gofmt, "-d", p.path)
	want := run(t, p.dir, false, gofmt, p.path)
	r := p.convert(t, "diff", "gofmt.diff", diff, "")
	if r.Gate.ID != "gofmt" {
		t.Errorf("gate %q", r.Gate.ID)
	}
	got, n, _ := p.applySuggestions(t, r)
	t.Logf("gofmt: %d hunks, %d suggestions", len(r.Findings), n)
	if n == 0 || n != len(r.Findings) || got != string(want) {
		t.Errorf("%d suggestions for %d hunks; after them:\n%s\ngofmt:\n%s", n, len(r.Findings), got, want)
	}
}
