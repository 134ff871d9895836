package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/ghapi/ghtest"
)

// The members under agc-action/ an answer brings are removed before it is
// posted, with a warning naming the file and the pointer; the dry run
// shows what would be posted.
func TestGithubStripsOwnMembers(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	forged := strings.Repeat("f", 40)
	doc := `[{"agc":"0.1","gate":{"id":"review","kind":"judgment"},
	 "subject":{"kind":"commit","fingerprint":"sha256:00","agc-action/gate-subject":{"bound_at":"` + forged + `"}},
	 "verdict":"allow","coverage":{"complete":true,"classes":["bug"]},"attempt":{"n":1,"budget":3},
	 "agc-action/carried-from":{"sha":"` + forged + `","fingerprint":"sha256:00","to":"` + forged + `"},"x-vendor/kept":1}]`
	file := filepath.Join(t.TempDir(), "answers.json")
	if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runGH(t, ghEnv(srv, "", nil), "--check", "--dry-run", "--sha", strings.Repeat("a", 40), file)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, ptr := range []string{"/agc-action~1carried-from", "/subject/agc-action~1gate-subject"} {
		if !strings.Contains(errs, "answers.json#/0: warning: "+ptr+": member ") {
			t.Errorf("no warning naming answers.json#/0 and %s:\n%s", ptr, errs)
		}
	}
	if strings.Contains(out, forged[:7]) {
		t.Errorf("the forged commit reaches the request:\n%s", out)
	}
}
