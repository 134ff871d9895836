package fingerprint

import (
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
func workedExample(t testing.TB) (*memTree, Scope, Gate) {
	tree := newTree(t,
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

func TestWorkedExample(t *testing.T) {
	tree, scope, gate := workedExample(t)
	sel, err := Select(tree.entries, scope, tree.read)
	if err != nil {
		t.Fatal(err)
	}
	enc := Encode(scope, gate, sel)
	got := annotate(t, enc) + Sum(scope, gate, sel) + "\n"
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
	sel, err := Select(tree.entries, scope, tree.read)
	if err != nil {
		t.Fatal(err)
	}
	base := Sum(scope, gate, sel)
	variants := map[string]string{
		"no gate":          Sum(scope, Gate{}, sel),
		"gate id":          Sum(scope, Gate{ID: "review2", Version: gate.Version, Configs: gate.Configs}, sel),
		"gate version":     Sum(scope, Gate{ID: gate.ID, Version: "1.1", Configs: gate.Configs}, sel),
		"gate config":      Sum(scope, Gate{ID: gate.ID, Version: gate.Version, Configs: []Config{NewConfig(".agc/review.md", []byte("x"))}}, sel),
		"no config":        Sum(scope, Gate{ID: gate.ID, Version: gate.Version}, sel),
		"added pattern":    Sum(mustScope(t, "src/**", "!src/gen/**", "nothing/**"), gate, sel),
		"whole tree":       Sum(Scope{}, gate, sel),
		"empty selection":  Sum(scope, gate, nil),
		"id/version shift": Sum(scope, Gate{ID: "review1", Version: ".0", Configs: gate.Configs}, sel),
		"mode":             Sum(scope, gate, append(sel[:len(sel)-1:len(sel)-1], Entry{Path: "src/run.sh", Mode: ModeFile, Type: "blob", OID: sel[len(sel)-1].OID})),
	}
	seen := map[string]string{base: "base"}
	for name, v := range variants {
		if prev, ok := seen[v]; ok {
			t.Errorf("%s and %s have the same fingerprint %s", name, prev, v)
		}
		seen[v] = name
	}
}
