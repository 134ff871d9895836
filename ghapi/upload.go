package ghapi

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"time"

	"github.com/google/go-github/v62/github"
)

// MaxSARIFGzip is GitHub's limit on an uploaded SARIF file, gzipped.
const MaxSARIFGzip = 10 << 20

// UploadInput is one SARIF log for code scanning.
type UploadInput struct {
	SARIF       []byte
	CommitSHA   string
	Ref         string // "" with PR > 0: refs/pull/PR/head
	PR          int
	CheckoutURI string
	ToolName    string
	// Polls bounds the processing-status polls (default 5), the first after
	// PollDelay (default 5 s), doubling, as upload-sarif does.
	Polls     int
	PollDelay time.Duration
}

// UploadResult is what GitHub said of an upload.
type UploadResult struct {
	ID     string
	Status string // complete, or pending when polling ran out
}

// UploadSARIF uploads a SARIF log (gzip, then base64) and polls until GitHub
// has processed it. A failed processing is an error with GitHub's own text.
func (c *Client) UploadSARIF(ctx context.Context, in UploadInput) (*UploadResult, error) {
	enc, err := encodeSARIF(in.SARIF)
	if err != nil {
		return nil, err
	}
	ref := in.Ref
	if in.PR > 0 {
		ref = fmt.Sprintf("refs/pull/%d/head", in.PR)
	}
	if ref == "" {
		return nil, fmt.Errorf("upload SARIF: a ref is required (refs/heads/BRANCH, or a pull request number)")
	}
	a := &github.SarifAnalysis{CommitSHA: github.String(in.CommitSHA), Ref: github.String(ref), Sarif: &enc}
	if in.CheckoutURI != "" {
		a.CheckoutURI = github.String(in.CheckoutURI)
	}
	if in.ToolName != "" {
		a.ToolName = github.String(in.ToolName)
	}
	id, _, err := c.gh.CodeScanning.UploadSarif(ctx, c.cfg.Owner, c.cfg.Repo, a)
	if err != nil {
		return nil, wrap("upload SARIF", err)
	}
	return c.poll(ctx, id.GetID(), in)
}

func encodeSARIF(sarif []byte) (string, error) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	if _, err := zw.Write(sarif); err != nil {
		return "", err
	}
	if err := zw.Close(); err != nil {
		return "", err
	}
	if gz.Len() > MaxSARIFGzip {
		return "", fmt.Errorf("upload SARIF: %d bytes gzipped, over GitHub's limit of %d", gz.Len(), MaxSARIFGzip)
	}
	return base64.StdEncoding.EncodeToString(gz.Bytes()), nil
}

type sarifStatus struct {
	ProcessingStatus string   `json:"processing_status"`
	Errors           []string `json:"errors"`
}

func (c *Client) poll(ctx context.Context, id string, in UploadInput) (*UploadResult, error) {
	polls, delay := in.Polls, in.PollDelay
	if polls <= 0 {
		polls = 5
	}
	if delay <= 0 {
		delay = 5 * time.Second
	}
	sleep := c.cfg.Retry.withDefaults().Sleep
	for i := 0; i < polls; i++ {
		if err := sleep(ctx, delay); err != nil {
			return nil, err
		}
		delay *= 2
		req, err := c.gh.NewRequest("GET", fmt.Sprintf("repos/%s/%s/code-scanning/sarifs/%s", c.cfg.Owner, c.cfg.Repo, id), nil)
		if err != nil {
			return nil, err
		}
		var st sarifStatus
		if _, err := c.gh.Do(ctx, req, &st); err != nil {
			return nil, wrap("SARIF upload "+id+" status", err)
		}
		switch st.ProcessingStatus {
		case "complete":
			return &UploadResult{ID: id, Status: st.ProcessingStatus}, nil
		case "failed":
			return nil, fmt.Errorf("SARIF upload %s failed processing: %s", id, strings.Join(st.Errors, "; "))
		}
	}
	return &UploadResult{ID: id, Status: "pending"}, nil
}
