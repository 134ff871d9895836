package action

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/internal/prfixture"
)

// TestTooLargeIsValidatesFinding: an input over the size limit (64 MiB)
// is a json.too-large finding of agc-validate, the class validate gives
// it, whether it is given as AGC, as an agent's message or as a fixer's
// diff; it was a json.syntax finding ("larger than N bytes") for each.
func TestTooLargeIsValidatesFinding(t *testing.T) {
	srv, root := prfixture.Setup(t)
	big := bytes.Repeat([]byte("x"), int(agc.DefaultMaxBytes)+1)
	for _, name := range []string{"out/big.json", "out/big.md", "fix/big.diff"} {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		data := big
		if strings.HasSuffix(name, ".json") {
			data = append([]byte(`{"agc":"0.1","pad":"`), big...)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := newActionRunner(t, srv, root, "pull_request", prfixture.Event).input("agc", "out/*").input("diff", "fix/big.diff")
	code, stdout := r.run()
	if code != cmdenv.ExitFail {
		t.Fatalf("exit %d, want %d\n%s", code, cmdenv.ExitFail, stdout)
	}
	v := runsOn(srv, prfixture.HeadSHA)["agc/agc-validate"]
	if v == nil {
		t.Fatal("no agc/agc-validate check run")
	}
	text := v.Summary + v.Text
	for _, name := range []string{"out/big.json", "out/big.md", "fix/big.diff"} {
		if !strings.Contains(text, name) {
			t.Errorf("agc-validate does not name %s", name)
		}
	}
	if n := strings.Count(text, "json.too-large"); n < 3 {
		t.Errorf("%d mentions of json.too-large, want one for each of the 3 inputs:\n%s", n, text)
	}
	if strings.Contains(text, "json.syntax") {
		t.Errorf("a too-large input is not a syntax error:\n%s", text)
	}
}
