package deliver

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/ghapi"
	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/internal/golden"
	"github.com/agcgate/agc-action/review"
)

// TestDryRunGolden pins the exact requests a first delivery of the
// block-patch fixture makes (reads answered by the emulator): the review
// with its suggestion, the file-level comment, the check run and the
// status. Regenerate with go test ./ghapi -run DryRunGolden -update.
func TestDryRunGolden(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	base := "package store\n\nfunc Open() (*DB, error) {\n\tdb := connect()\n\treturn db, nil\n}\n"
	head := "package store\n\nfunc Open() (*DB, error) {\n\tdb := connect()\n\tdb.Ping()\n\treturn db, nil\n}\n\nvar dbUrl = \"x\"\n"
	srv.SetHead(testRepo, 2, headSHA, []ghtest.File{{Path: "src/store/db.go", Base: base, Head: head}})
	raw, err := os.ReadFile("../fixtures/agc/valid/block-patch.json")
	if err != nil {
		t.Fatal(err)
	}
	r, err := agc.Decode("block-patch.json", raw, agc.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	c, err := ghapi.New(ghapi.Config{Owner: testOwner, Repo: testName, Token: ghtest.TokenActions, BaseURL: srv.URL(), GraphQLURL: srv.GraphQLURL(),
		Transport: &ghapi.DryRun{W: &out, Reads: http.DefaultTransport}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Deliver(context.Background(), c, []agc.Doc{{Response: r, Raw: raw}}, Options{PR: 2, HeadSHA: headSHA,
		Review: true, Check: true, Status: true, Plan: review.PlanOptions{Head: files{"src/store/db.go": head}}})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.ReplaceAll(out.String(), strings.TrimPrefix(strings.TrimSuffix(srv.URL(), "/"), "http://"), "api.github.test")
	// A review's one-off attempt mark is random by design.
	got = regexp.MustCompile(`agc-attempt:[0-9a-f]+`).ReplaceAllString(got, "agc-attempt:ATTEMPT")
	golden.Check(t, filepath.Join("testdata", "dryrun-block-patch.golden"), []byte(got), *update)
}
