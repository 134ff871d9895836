package action

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/internal/prfixture"
)

// TestActionNoResponse is issue 11, case 7, in the Action: a gate whose
// answer file holds no response ([], an empty JSON Lines file, an empty
// file) has not passed. agc/agc-validate fails naming the file, and the
// step fails.
func TestActionNoResponse(t *testing.T) {
	for name, data := range map[string]string{"out/review.json": "[]\n", "out/review.jsonl": "", "out/review.md": "", "out/spaced.json": " [\n] \n"} {
		t.Run(name, func(t *testing.T) {
			srv, root := prfixture.Setup(t)
			if err := os.MkdirAll(filepath.Join(root, "out"), 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, root, name, []byte(data))
			r := newActionRunner(t, srv, root, "pull_request", prfixture.Event).input("agc", name)
			code, stdout := r.run()
			if code != cmdenv.ExitFail {
				t.Fatalf("exit %d, want %d: a gate that answered nothing must fail the step\n%s", code, cmdenv.ExitFail, stdout)
			}
			v := runsOn(srv, prfixture.HeadSHA)["agc/agc-validate"]
			if v == nil || v.Conclusion != "failure" {
				t.Fatalf("agc/agc-validate: %+v", v)
			}
			if !strings.Contains(v.Summary+v.Text, name) || !strings.Contains(v.Summary+v.Text, "no AGC response") {
				t.Errorf("agc/agc-validate must name %s and say it holds no response:\n%s\n%s", name, v.Summary, v.Text)
			}
		})
	}
}
