package ghapi

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/ghapi/ghtest"
)

const minimalSARIF = `{"version":"2.1.0","$schema":"https://json.schemastore.org/sarif-2.1.0.json","runs":[{"tool":{"driver":{"name":"agc"}},"results":[]}]}`

func TestUploadSARIF(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{PendingPolls: 2})
	sl := &fakeSleep{}
	c := newClient(t, srv, ghtest.TokenActions, sl)
	res, err := c.UploadSARIF(context.Background(), UploadInput{SARIF: []byte(minimalSARIF), CommitSHA: headSHA, PR: 2,
		Ref: "refs/pull/2/merge", CheckoutURI: "file:///home/runner/work/r/r", ToolName: "agc"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != "complete" || srv.Counts()["code-scanning/get-sarif"] != 3 {
		t.Errorf("status %s after %d polls", res.Status, srv.Counts()["code-scanning/get-sarif"])
	}
	if len(sl.Waits()) != 3 || sl.Waits()[0] != 5e9 || sl.Waits()[2] != 20e9 {
		t.Errorf("poll waits %v, want 5s, 10s, 20s", sl.Waits())
	}
	srv.Snapshot(func(_ map[string]*ghtest.PullRequest, _ []*ghtest.CheckRun, _ []*ghtest.Status, ups []*ghtest.SARIFUpload) {
		u := ups[0]
		if u.Ref != "refs/pull/2/head" || u.CommitSHA != headSHA || string(u.SARIF) != minimalSARIF || u.ToolName != "agc" || u.CheckoutURI == "" {
			t.Errorf("upload %+v", u)
		}
	})
}

func TestUploadSARIFProcessingFailed(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	srv.FailSARIF(headSHA, "locationFromSarifResult: expected artifact location")
	c := newClient(t, srv, ghtest.TokenActions, &fakeSleep{})
	_, err := c.UploadSARIF(context.Background(), UploadInput{SARIF: []byte(minimalSARIF), CommitSHA: headSHA, Ref: "refs/heads/main"})
	if err == nil || !strings.Contains(err.Error(), "locationFromSarifResult: expected artifact location") {
		t.Errorf("err = %v, want GitHub's processing error", err)
	}
}

func TestUploadSARIFTooLarge(t *testing.T) {
	sarif := randomSARIF(t, 12<<20)
	// Over 10 MB gzipped: refused before sending.
	srv := ghtest.New(t, ghtest.Options{})
	c := newClient(t, srv, ghtest.TokenActions, &fakeSleep{})
	_, err := c.UploadSARIF(context.Background(), UploadInput{SARIF: sarif, CommitSHA: headSHA, Ref: "refs/heads/main"})
	if err == nil || !strings.Contains(err.Error(), "over GitHub's limit") || len(srv.Counts()) != 0 {
		t.Errorf("err = %v, requests %v; want a refusal before any request", err, srv.Counts())
	}
	// A server with a lower limit answers 413, and its message surfaces.
	srv = ghtest.New(t, ghtest.Options{SARIFMaxGzip: 1 << 20})
	c = newClient(t, srv, ghtest.TokenActions, &fakeSleep{})
	_, err = c.UploadSARIF(context.Background(), UploadInput{SARIF: randomSARIF(t, 2<<20), CommitSHA: headSHA, Ref: "refs/heads/main"})
	if !isHTTP(err, 413) || !strings.Contains(err.Error(), "too large") {
		t.Errorf("err = %v, want 413", err)
	}
}

// randomSARIF is a SARIF log padded with n random bytes (in base64), which
// gzip cannot shrink below about n.
func randomSARIF(t *testing.T, n int) []byte {
	big := make([]byte, n)
	if _, err := rand.Read(big); err != nil {
		t.Fatal(err)
	}
	return []byte(`{"version":"2.1.0","runs":[],"x":"` + base64.StdEncoding.EncodeToString(big) + `"}`)
}
