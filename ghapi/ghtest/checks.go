package ghtest

import (
	"fmt"
	"net/http"
	"strconv"
	"time"
	"unicode/utf8"
)

type checkOutput struct {
	Title       *string          `json:"title"`
	Summary     *string          `json:"summary"`
	Text        *string          `json:"text"`
	Annotations []map[string]any `json:"annotations"`
}

type checkRequest struct {
	Name       string       `json:"name"`
	DetailsURL string       `json:"details_url"`
	ExternalID *string      `json:"external_id"`
	HeadSHA    string       `json:"head_sha"`
	Status     string       `json:"status"`
	Conclusion string       `json:"conclusion"`
	Output     *checkOutput `json:"output"`
}

const maxCheckText = 65535

// outputProblem returns GitHub's complaint about a check-run output.
func outputProblem(o *checkOutput) string {
	switch {
	case o == nil:
		return ""
	case len(o.Annotations) > 50:
		return fmt.Sprintf("Only 50 annotations are allowed per request; got %d", len(o.Annotations))
	case o.Summary != nil && utf8.RuneCountInString(*o.Summary) > maxCheckText:
		return "output.summary is too long (maximum is 65535 characters)"
	case o.Text != nil && utf8.RuneCountInString(*o.Text) > maxCheckText:
		return "output.text is too long (maximum is 65535 characters)"
	}
	for i, a := range o.Annotations {
		start, _ := a["start_line"].(float64)
		end, _ := a["end_line"].(float64)
		if end < start {
			return fmt.Sprintf("annotation %d: end_line is before start_line", i)
		}
	}
	return ""
}

func createCheckRun(s *Server, w http.ResponseWriter, q *request) {
	var cr checkRequest
	if err := q.decode(&cr); err != nil {
		writeError(w, http.StatusBadRequest, "Problems parsing JSON")
		return
	}
	if q.who.AppSlug == "" {
		writeError(w, http.StatusForbidden, "You must authenticate via a GitHub App.")
		return
	}
	if msg := outputProblem(cr.Output); msg != "" {
		writeError(w, http.StatusUnprocessableEntity, "Invalid request.", msg)
		return
	}
	run := &CheckRun{ID: s.newID(), Repo: repoOf(q), Name: cr.Name, HeadSHA: cr.HeadSHA, Status: orDefault(cr.Status, "queued"), App: q.who}
	if cr.Conclusion != "" {
		run.Status = "completed"
	}
	run.apply(cr)
	if run.Conclusion != "" {
		run.Completed = q.now
	}
	s.checkRuns = append(s.checkRuns, run)
	writeJSON(w, http.StatusCreated, run.json(q.now))
}

func (run *CheckRun) apply(cr checkRequest) {
	run.Requests++
	if cr.DetailsURL != "" {
		run.DetailsURL = cr.DetailsURL
	}
	if cr.ExternalID != nil {
		run.ExternalID = *cr.ExternalID
	}
	if cr.Conclusion != "" {
		run.Conclusion, run.Status = cr.Conclusion, "completed"
	} else if cr.Status != "" {
		run.Status = cr.Status
	}
	if o := cr.Output; o != nil {
		set := func(dst *string, v *string) {
			if v != nil {
				*dst = *v
			}
		}
		set(&run.Title, o.Title)
		set(&run.Summary, o.Summary)
		set(&run.Text, o.Text)
		run.Annotations = append(run.Annotations, o.Annotations...)
	}
}

func updateCheckRun(s *Server, w http.ResponseWriter, q *request) {
	id, _ := strconv.ParseInt(q.params["check_run_id"], 10, 64)
	var run *CheckRun
	for _, r := range s.checkRuns {
		if r.ID == id && r.Repo == repoOf(q) {
			run = r
		}
	}
	if run == nil {
		writeError(w, http.StatusNotFound, "Not Found")
		return
	}
	if run.App.AppSlug != q.who.AppSlug {
		writeError(w, http.StatusForbidden, "Invalid app_id `"+strconv.FormatInt(q.who.AppID, 10)+"` - check run can only be modified by the GitHub App that created it.")
		return
	}
	var cr checkRequest
	if err := q.decode(&cr); err != nil {
		writeError(w, http.StatusBadRequest, "Problems parsing JSON")
		return
	}
	if msg := outputProblem(cr.Output); msg != "" {
		writeError(w, http.StatusUnprocessableEntity, "Invalid request.", msg)
		return
	}
	done := run.Conclusion
	run.apply(cr)
	if done == "" && run.Conclusion != "" {
		run.Completed = q.now
	}
	writeJSON(w, http.StatusOK, run.json(q.now))
}

func (run *CheckRun) json(now time.Time) map[string]any {
	m := map[string]any{
		"id": run.ID, "node_id": nodeID("CR", run.ID), "head_sha": run.HeadSHA, "name": run.Name,
		"status": run.Status, "external_id": run.ExternalID, "details_url": run.DetailsURL,
		"url":      fmt.Sprintf("https://api.github.com/repos/%s/check-runs/%d", run.Repo, run.ID),
		"html_url": fmt.Sprintf("https://github.com/%s/runs/%d", run.Repo, run.ID),
		"output": map[string]any{
			"title": run.Title, "summary": run.Summary, "text": run.Text,
			"annotations_count": len(run.Annotations),
			"annotations_url":   fmt.Sprintf("https://api.github.com/repos/%s/check-runs/%d/annotations", run.Repo, run.ID),
		},
		"started_at": now.Format(time.RFC3339), "check_suite": map[string]any{"id": 5},
		"app": run.App.appJSON(), "pull_requests": []any{}, "conclusion": nil, "completed_at": nil,
	}
	if run.Conclusion != "" {
		done := run.Completed
		if done.IsZero() {
			done = now
		}
		m["conclusion"], m["completed_at"] = run.Conclusion, done.UTC().Format(time.RFC3339)
	}
	return m
}

func listCheckRuns(s *Server, w http.ResponseWriter, q *request) {
	name := q.r.URL.Query().Get("check_name")
	var match []*CheckRun
	for i := len(s.checkRuns) - 1; i >= 0; i-- { // newest first
		r := s.checkRuns[i]
		if r.Repo == repoOf(q) && r.HeadSHA == q.params["ref"] && (name == "" || r.Name == name) {
			match = append(match, r)
		}
	}
	out := []map[string]any{}
	for _, r := range page(w, q.r, match) {
		out = append(out, r.json(q.now))
	}
	writeJSON(w, http.StatusOK, map[string]any{"total_count": len(match), "check_runs": out})
}

func createStatus(s *Server, w http.ResponseWriter, q *request) {
	var d struct {
		State       string `json:"state"`
		Context     string `json:"context"`
		Description string `json:"description"`
		TargetURL   string `json:"target_url"`
	}
	if err := q.decode(&d); err != nil {
		writeError(w, http.StatusBadRequest, "Problems parsing JSON")
		return
	}
	if utf8.RuneCountInString(d.Description) > 140 {
		writeError(w, http.StatusUnprocessableEntity, "Validation Failed", map[string]any{
			"resource": "Status", "code": "custom", "field": "description",
			"message": "description is too long (maximum is 140 characters)"})
		return
	}
	st := &Status{Repo: repoOf(q), SHA: q.params["sha"], State: d.State, Context: orDefault(d.Context, "default"),
		Description: d.Description, TargetURL: d.TargetURL, Creator: q.who}
	s.statuses = append(s.statuses, st)
	id := s.newID()
	writeJSON(w, http.StatusCreated, map[string]any{
		"id": id, "node_id": nodeID("SC", id), "state": st.State, "context": st.Context,
		"description": nullIfEmpty(st.Description), "target_url": nullIfEmpty(st.TargetURL), "creator": q.who.userJSON(),
		"url": "https://api.github.com/repos/" + st.Repo + "/statuses/" + st.SHA, "avatar_url": "https://avatars.githubusercontent.com/u/9919",
		"created_at": q.now.Format(time.RFC3339), "updated_at": q.now.Format(time.RFC3339),
	})
}

func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}
