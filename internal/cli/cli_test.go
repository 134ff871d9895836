package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestEveryCommandRegistered: each cmd_<name>.go's run function is
// reachable through Main and listed in the usage.
func TestEveryCommandRegistered(t *testing.T) {
	files, err := filepath.Glob("cmd_*.go")
	if err != nil {
		t.Fatal(err)
	}
	runFunc := regexp.MustCompile(`(?m)^func (run[A-Z][A-Za-z]*)\(e \*Env, args \[\]string\) int`)
	cmds := commands()
	registered := map[string]bool{}
	for name := range cmds {
		registered[strings.ToLower(name)] = true
	}
	_, _, usage := run(t, "", "--help")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range runFunc.FindAllStringSubmatch(string(src), -1) {
			name := strings.ToLower(strings.TrimPrefix(m[1], "run"))
			if !registered[name] {
				t.Errorf("%s defines %s but no command %q is registered in cli.go", f, m[1], name)
			}
			if !strings.Contains(usage, "  "+name+" ") {
				t.Errorf("usage does not list %q:\n%s", name, usage)
			}
		}
	}
}

func TestUnknownCommand(t *testing.T) {
	code, _, errs := run(t, "", "frobnicate")
	if code != ExitUsage || !strings.Contains(errs, `unknown command "frobnicate"`) {
		t.Errorf("exit %d: %s", code, errs)
	}
	if code, _, _ := run(t, ""); code != ExitUsage {
		t.Errorf("no command: exit %d", code)
	}
}
