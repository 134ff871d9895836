package subject

import (
	"bytes"
	"context"
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/internal/golden"
)

var update = flag.Bool("update", false, "rewrite golden files")

// workedExample is the tree of the worked example in docs/fingerprint.md.
func workedExample(t testing.TB) (*memRepo, Scope, Gate) {
	tree := newRepo(t,
		".agc/review.md", ModeFile, "Review src/ for bugs.\n",
		"README.md", ModeFile, "# demo\n",
		"shared/config.h", ModeFile, "#define N 1\n",
		"src/config.h", ModeSymlink, "../shared/config.h",
		"src/gen/api.go", ModeFile, "package gen\n",
		"src/main.go", ModeFile, "package main\n",
		"src/run.sh", ModeExec, "#!/bin/sh\n",
	)
	gate := Gate{ID: "review", Version: "1.0", Configs: []Config{NewConfig(".agc/review.md", []byte("Review src/ for bugs.\n"))}}
	return tree, mustScope(t, "src/**", "!src/gen/**"), gate
}

// selection lists the tree of m and selects over s, as Compute does.
func selection(t testing.TB, m *memRepo, s Scope) (l *listing, in []bool, n int) {
	t.Helper()
	l, err := list(context.Background(), m, memCommit, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	in, n, err = l.closeOver(s, func(oid string) ([]byte, error) { return m.Blob(context.Background(), oid) })
	if err != nil {
		t.Fatal(err)
	}
	return l, in, n
}

func TestWorkedExample(t *testing.T) {
	tree, scope, gate := workedExample(t)
	l, in, n := selection(t, tree, scope)
	var enc bytes.Buffer
	l.encode(&enc, scope, gate, in, n)
	got := annotate(t, enc.Bytes()) + l.sum(scope, gate, in, n) + "\n"
	res, err := Compute(context.Background(), tree, Options{Rev: "HEAD", Scope: scope, GateID: gate.ID, GateVersion: gate.Version, GateConfigs: []string{".agc/review.md"}})
	if err != nil || res.Fingerprint != l.sum(scope, gate, in, n) {
		t.Errorf("Compute gives %v, %v; the encoding hashes to %s", res, err, l.sum(scope, gate, in, n))
	}
	path := filepath.Join("testdata", "worked-example.txt")
	golden.Check(t, path, []byte(got), *update)
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join("..", "docs", "fingerprint.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), string(want)) {
		t.Errorf("docs/fingerprint.md does not contain the worked example of %s verbatim", path)
	}
}

// annotate lists an encoding one item a line: the 4-byte prefix in hex,
// then the field's bytes quoted (or what the count counts). It fails the
// test unless the bytes parse exactly as the specification's layout.
func annotate(t testing.TB, b []byte) string {
	t.Helper()
	var sb strings.Builder
	u32 := func() uint32 {
		if len(b) < 4 {
			t.Fatalf("encoding ends inside a length")
		}
		n := binary.BigEndian.Uint32(b)
		b = b[4:]
		return n
	}
	field := func(what string) {
		n := u32()
		if uint32(len(b)) < n {
			t.Fatalf("encoding ends inside %s", what)
		}
		fmt.Fprintf(&sb, "%08x %q\n", n, b[:n])
		b = b[n:]
	}
	list := func(what string, each func()) {
		n := u32()
		fmt.Fprintf(&sb, "%08x (%d %s)\n", n, n, what)
		for range n {
			each()
		}
	}
	field("domain")
	field("version")
	list("patterns", func() { field("pattern") })
	field("gate id")
	field("gate version")
	list("gate config files", func() { field("config path"); field("config sha256") })
	list("entries", func() { field("path"); field("mode"); field("type"); field("object id") })
	if len(b) != 0 {
		t.Fatalf("%d bytes after the entries", len(b))
	}
	return sb.String()
}

func TestEncodingDistinguishes(t *testing.T) {
	tree, scope, gate := workedExample(t)
	l, in, n := selection(t, tree, scope)
	sum := func(s Scope, g Gate) string { return l.sum(s, g, in, n) }
	// the worked example with src/run.sh not executable
	ml, min, mn := selection(t, newRepo(t, ".agc/review.md", ModeFile, "Review src/ for bugs.\n",
		"README.md", ModeFile, "# demo\n", "shared/config.h", ModeFile, "#define N 1\n",
		"src/config.h", ModeSymlink, "../shared/config.h", "src/gen/api.go", ModeFile, "package gen\n",
		"src/main.go", ModeFile, "package main\n", "src/run.sh", ModeFile, "#!/bin/sh\n"), scope)
	base := sum(scope, gate)
	variants := map[string]string{
		"no gate":          sum(scope, Gate{}),
		"gate id":          sum(scope, Gate{ID: "review2", Version: gate.Version, Configs: gate.Configs}),
		"gate version":     sum(scope, Gate{ID: gate.ID, Version: "1.1", Configs: gate.Configs}),
		"gate config":      sum(scope, Gate{ID: gate.ID, Version: gate.Version, Configs: []Config{NewConfig(".agc/review.md", []byte("x"))}}),
		"no config":        sum(scope, Gate{ID: gate.ID, Version: gate.Version}),
		"added pattern":    sum(mustScope(t, "src/**", "!src/gen/**", "nothing/**"), gate),
		"whole tree":       sum(Scope{}, gate),
		"empty selection":  l.sum(scope, gate, make([]bool, l.spans.n), 0),
		"id/version shift": sum(scope, Gate{ID: "review1", Version: ".0", Configs: gate.Configs}),
		"mode":             ml.sum(scope, gate, min, mn),
	}
	seen := map[string]string{base: "base"}
	for name, v := range variants {
		if prev, ok := seen[v]; ok {
			t.Errorf("%s and %s have the same fingerprint %s", name, prev, v)
		}
		seen[v] = name
	}
}
