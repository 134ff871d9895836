package agc_test

import (
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
)

func TestGateID(t *testing.T) {
	cases := map[string]string{
		"ESLint":                  "eslint",
		"Demo Lint":               "demo-lint",
		"golangci-lint":           "golangci-lint",
		"x\n::error::INJECTED":    "x-error-injected",
		"R2 ##[stop-commands]INJ": "r2-stop-commands-inj",
		"agc/secrets":             "agc-secrets",
		"..":                      "unknown-tool",
		"_private.tool":           "private.tool",
		"Линтер":                  "unknown-tool",
		"a\u202eb":                "a-b",
		"":                        "unknown-tool",
	}
	for in, want := range cases {
		if got := agc.ToolGateID(in); got != want {
			t.Errorf("GateID(%q) = %q, want %q", in, got, want)
		}
	}
	long := strings.Repeat("Tool", 40)
	id := agc.ToolGateID(long)
	if err := agc.CheckGateID(id); err != nil || len(id) != agc.MaxGateIDLen {
		t.Errorf("GateID of a long name: %q (%d bytes): %v", id, len(id), err)
	}
	if other := agc.ToolGateID(long + "x"); other == id {
		t.Errorf("two long names that differ past the cut share %q", id)
	}
}

func TestClashes(t *testing.T) {
	names := []string{"ESLint", "eslint", "ESLint", "golangci-lint", "Demo Lint", "demo-lint", "demo lint"}
	ids := make([]string, len(names))
	for i, n := range names {
		ids[i] = agc.ToolGateID(n)
	}
	got := agc.Clashes(ids, names)
	if len(got) != 2 || got[0].ID != "eslint" || strings.Join(got[0].Tools, ",") != "ESLint,eslint" ||
		got[1].ID != "demo-lint" || len(got[1].Tools) != 3 {
		t.Errorf("clashes %+v", got)
	}
	if c := agc.Clashes([]string{"eslint", "eslint"}, []string{"ESLint", "ESLint"}); len(c) != 0 {
		t.Errorf("two runs of one tool are no clash: %+v", c)
	}
}

// FuzzGateID: the gate id of any tool name is one agc-action posts, and
// two distinct names in one run either get distinct ids or are reported
// as a clash, never silently merged.
func FuzzGateID(f *testing.F) {
	for _, s := range [][2]string{{"ESLint", "eslint"}, {"Demo Lint", "demo-lint"}, {"x\n::error::y", "x ::error::y"},
		{strings.Repeat("a", 120), strings.Repeat("a", 120) + "b"}, {"", ".."}, {"Линтер", "инструмент"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		ia, ib := agc.ToolGateID(a), agc.ToolGateID(b)
		for _, id := range []string{ia, ib} {
			if err := agc.CheckGateID(id); err != nil {
				t.Fatalf("GateID(%q or %q) = %q: %v", a, b, id, err)
			}
		}
		if ia != agc.ToolGateID(a) {
			t.Fatalf("GateID(%q) is not stable", a)
		}
		clashes := agc.Clashes([]string{ia, ib}, []string{a, b})
		switch {
		case a != b && ia == ib:
			if len(clashes) != 1 || clashes[0].ID != ia || len(clashes[0].Tools) != 2 {
				t.Fatalf("%q and %q both became %q without a clash: %+v", a, b, ia, clashes)
			}
		case len(clashes) != 0:
			t.Fatalf("clash reported for %q and %q (%q, %q): %+v", a, b, ia, ib, clashes)
		}
	})
}
