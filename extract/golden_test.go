package extract

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/agcgate/agc-action/internal/golden"
	"github.com/agcgate/agc-action/internal/testkit"
)

var update = flag.Bool("update", false, "rewrite golden files")

// render writes what Find returned in the form the golden files hold.
func render(b Block, lints []diag.Lint, err error) []byte {
	var w bytes.Buffer
	var e *Error
	if errors.As(err, &e) {
		fmt.Fprintf(&w, "error %s %v: %s\n", e.Kind, e.Lines, e.Msg)
		return w.Bytes()
	}
	fmt.Fprintf(&w, "block lines %d-%d\n", b.StartLine, b.EndLine)
	for _, l := range lints {
		fmt.Fprintf(&w, "lint %d: %s\n", l.Line, l.Message)
	}
	fmt.Fprintf(&w, "content:\n%s", b.Content)
	return w.Bytes()
}

func messages(t testing.TB) []string {
	t.Helper()
	return testkit.Glob(t, "testdata/*.md")
}

func TestGolden(t *testing.T) {
	for _, in := range messages(t) {
		t.Run(filepath.Base(in), func(t *testing.T) {
			msg, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			got := render(Find("msg.md", msg))
			golden.Check(t, strings.TrimSuffix(in, ".md")+".golden", got, *update)
		})
	}
}

// TestGoldenBlocksDecode checks that every block the realistic messages
// yield is an AGC response the strict decoder accepts, and that its
// content is exactly what the message holds between the fences.
func TestGoldenBlocksDecode(t *testing.T) {
	found := 0
	for _, in := range messages(t) {
		msg, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		b, _, err := Find("msg.md", msg)
		if err != nil {
			continue
		}
		found++
		if _, err := agc.Decode(in, b.Content, agc.Limits{}); err != nil {
			t.Errorf("%s: block at line %d does not decode: %v", in, b.StartLine, err)
		}
		checkInvariants(t, msg, b)
	}
	if found < 3 {
		t.Errorf("only %d testdata messages hold a block; want at least 3", found)
	}
}
