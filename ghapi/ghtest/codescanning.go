package ghtest

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

func uploadSARIF(s *Server, w http.ResponseWriter, q *request) {
	var d struct {
		CommitSHA   string `json:"commit_sha"`
		Ref         string `json:"ref"`
		SARIF       string `json:"sarif"`
		CheckoutURI string `json:"checkout_uri"`
		ToolName    string `json:"tool_name"`
	}
	if err := q.decode(&d); err != nil {
		writeError(w, http.StatusBadRequest, "Problems parsing JSON")
		return
	}
	gz, err := base64.StdEncoding.DecodeString(d.SARIF)
	if err != nil {
		writeError(w, http.StatusBadRequest, "Invalid request.", "sarif is not base64: "+err.Error())
		return
	}
	if len(gz) > s.opt.SARIFMaxGzip {
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("SARIF upload is too large: %d bytes gzipped, the limit is %d", len(gz), s.opt.SARIFMaxGzip))
		return
	}
	raw, err := gunzip(gz)
	if err != nil {
		writeError(w, http.StatusBadRequest, "Invalid request.", "sarif is not gzip: "+err.Error())
		return
	}
	up := &SARIFUpload{ID: fmt.Sprintf("47177e22-5596-11eb-80a1-c1e54ef945c6-%d", s.newID()), Repo: repoOf(q),
		CommitSHA: d.CommitSHA, Ref: d.Ref, CheckoutURI: d.CheckoutURI, ToolName: d.ToolName, SARIF: raw, Status: "pending"}
	s.uploads = append(s.uploads, up)
	writeJSON(w, http.StatusAccepted, map[string]any{
		"id": up.ID, "url": "https://api.github.com/repos/" + up.Repo + "/code-scanning/sarifs/" + up.ID})
}

func gunzip(b []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

func getSARIF(s *Server, w http.ResponseWriter, q *request) {
	var up *SARIFUpload
	for _, u := range s.uploads {
		if u.ID == q.params["sarif_id"] && u.Repo == repoOf(q) {
			up = u
		}
	}
	if up == nil {
		writeError(w, http.StatusNotFound, "Not Found")
		return
	}
	up.polls++
	if up.Status == "pending" && up.polls > s.opt.PendingPolls {
		up.Errors = append(sarifProblems(up.SARIF), s.sarifFail[up.CommitSHA]...)
		up.Status = "complete"
		if len(up.Errors) > 0 {
			up.Status = "failed"
		}
	}
	out := map[string]any{"processing_status": up.Status,
		"analyses_url": "https://api.github.com/repos/" + up.Repo + "/code-scanning/analyses?sarif_id=" + up.ID}
	if up.Status == "failed" {
		out["errors"] = up.Errors
	}
	writeJSON(w, http.StatusOK, out)
}

// sarifProblems checks what GitHub checks first: a SARIF 2.1.0 log with runs.
func sarifProblems(raw []byte) []string {
	var log struct {
		Version string            `json:"version"`
		Runs    []json.RawMessage `json:"runs"`
	}
	if err := json.Unmarshal(raw, &log); err != nil {
		return []string{"could not parse the SARIF file: " + err.Error()}
	}
	if log.Version != "2.1.0" {
		return []string{fmt.Sprintf("unsupported SARIF version %q; expected 2.1.0", log.Version)}
	}
	if log.Runs == nil {
		return []string{"instance requires property \"runs\""}
	}
	if len(log.Runs) > 20 {
		return []string{fmt.Sprintf("SARIF file has %d runs; the limit is 20", len(log.Runs))}
	}
	return nil
}
