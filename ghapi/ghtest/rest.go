package ghtest

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// handlers serve the REST operations of the subset, by operation id. Each
// returns only what the emulator's state decides of its answer; reply
// completes it from the description and checks it.
var handlers = map[string]handler{
	"pulls/get": func(s *Server, q *request) (any, error) {
		if strings.Contains(q.r.Header.Get("Accept"), "diff") { // the diff media type
			return text(q.pr.diff()), nil
		}
		return q.pr.json(q.now), nil
	},
	"pulls/list-files":   listFiles,
	"pulls/list-commits": listCommits,
	"repos/list-pull-requests-associated-with-commit": listCommitPulls,
	"pulls/list-review-comments":                      func(s *Server, q *request) (any, error) { return page(q, q.pr.Comments, nil), nil },
	"pulls/create-review-comment":                     createComment,
	"pulls/update-review-comment":                     updateComment,
	"pulls/delete-review-comment":                     deleteComment,
	"pulls/list-reviews":                              func(s *Server, q *request) (any, error) { return page(q, q.pr.Reviews, nil), nil },
	"pulls/create-review":                             createReview,
	"pulls/update-review":                             updateReview,
	"checks/create":                                   createCheckRun,
	"checks/update":                                   updateCheckRun,
	"checks/list-for-ref":                             listCheckRuns,
	"repos/create-commit-status":                      createStatus,
	"code-scanning/upload-sarif":                      uploadSARIF,
	"code-scanning/get-sarif":                         getSARIF,
	"repos/get-collaborator-permission-level":         getPermission,
	"issues/list-comments":                            listIssueComments,
	"issues/create-comment":                           createIssueComment,
	"repos/get":                                       getRepo,
}

// json is the pull request as GET /pulls/{n} and GET /commits/{sha}/pulls
// answer it.
func (pr *PullRequest) json(now time.Time) obj {
	adds, dels := 0, 0
	for _, f := range pr.files {
		adds, dels = adds+f.additions, dels+f.deletions
	}
	base := orDefault(pr.Base, "main")
	m := obj{"number": pr.Number, "state": "open", "merged": false, "head": obj{"sha": pr.HeadSHA},
		"base":          obj{"ref": base, "label": "octocat:" + base, "sha": orDefault(pr.BaseSHA, DefaultBaseSHA)},
		"changed_files": len(pr.files), "additions": adds, "deletions": dels, "commits": len(pr.Commits)}
	if pr.MergeCommitSHA != "" {
		m["state"], m["merged"], m["merged_at"], m["closed_at"], m["merge_commit_sha"] = "closed", true, now, now, pr.MergeCommitSHA
	}
	return m
}

func listFiles(s *Server, q *request) (any, error) {
	return page(q, q.pr.files[:min(len(q.pr.files), MaxListedFiles)], func(f *prFile) any {
		e := obj{"filename": f.Path, "status": f.status, "additions": f.additions, "deletions": f.deletions, "changes": f.additions + f.deletions}
		if f.Previous != "" {
			e["previous_filename"] = f.Previous
		}
		if f.patch != "" && (s.opt.MaxPatchBytes <= 0 || len(f.patch) <= s.opt.MaxPatchBytes) {
			e["patch"] = f.patch
		}
		return e
	}), nil
}

// listCommits answers GET /pulls/{n}/commits: the heads pushed to the pull
// request, oldest first (at most 250, as GitHub lists), each as a commit
// whose parent is the one before.
func listCommits(s *Server, q *request) (any, error) {
	return page(q, q.pr.Commits[max(len(q.pr.Commits)-250, 0):], func(sha string) any {
		parents := []any{}
		if i := slices.Index(q.pr.Commits, sha); i > 0 {
			parents = append(parents, obj{"sha": q.pr.Commits[i-1]})
		}
		return obj{"sha": sha, "parents": parents, "commit": obj{"message": "push " + sha[:min(len(sha), 7)]}}
	}), nil
}

// listCommitPulls answers GET /commits/{sha}/pulls: the pull requests of
// the repository whose commits hold sha, or that were merged by it.
func listCommitPulls(s *Server, q *request) (any, error) {
	sha := q.params["commit_sha"]
	var match []*PullRequest
	for _, pr := range s.prs {
		if pr.Repo == q.repo && (pr.MergeCommitSHA == sha || slices.Contains(pr.Commits, sha)) {
			match = append(match, pr)
		}
	}
	slices.SortFunc(match, func(a, b *PullRequest) int { return b.Number - a.Number })
	return page(q, match, func(pr *PullRequest) any { return pr.json(q.now) }), nil
}

// draft is a comment as clients send it, in a review or alone.
type draft struct {
	Path        string `json:"path"`
	Body        string `json:"body"`
	Line        int    `json:"line"`
	Side        string `json:"side"`
	StartLine   int    `json:"start_line"`
	StartSide   string `json:"start_side"`
	Position    int    `json:"position"`
	CommitID    string `json:"commit_id"`
	SubjectType string `json:"subject_type"`
}

func createComment(s *Server, q *request) (any, error) {
	var d draft
	if err := q.decode(&d); err != nil {
		return nil, err
	}
	if d.CommitID != "" && d.CommitID != q.pr.HeadSHA {
		return nil, fail(http.StatusUnprocessableEntity, "Validation Failed", "commit_id is not part of the pull request")
	}
	if msg := q.pr.check(d); msg != "" {
		return nil, fail(http.StatusUnprocessableEntity, "Validation Failed", msg)
	}
	return s.addComment(q.pr, d, q.who, s.newID(), q.now), nil
}

// comment finds the review comment {comment_id} of the request's
// repository.
func (s *Server) comment(q *request) (*PullRequest, *Comment) {
	id, _ := strconv.ParseInt(q.params["comment_id"], 10, 64)
	for _, pr := range s.prs {
		if c := pr.comment(id); pr.Repo == q.repo && c != nil {
			return pr, c
		}
	}
	return nil, nil
}

func updateComment(s *Server, q *request) (any, error) {
	_, c := s.comment(q)
	if c == nil {
		return nil, errNotFound
	}
	body, err := ownBody(q, c.User.Login)
	if err != nil {
		return nil, err
	}
	c.Body, c.Updated = body, q.now
	return c, nil
}

// deleteComment answers DELETE /pulls/comments/{id}, which only a peer
// tool sends: only the comment's author may.
func deleteComment(s *Server, q *request) (any, error) {
	pr, c := s.comment(q)
	switch {
	case c == nil:
		return nil, errNotFound
	case c.User.Login != q.who.Login:
		return nil, errForbidden
	}
	pr.deleteComment(c)
	return nil, nil
}

// ownBody reads the body of an edit to something the requester wrote;
// another author's answers 403.
func ownBody(q *request, author string) (string, error) {
	var d struct {
		Body string `json:"body"`
	}
	if author != q.who.Login {
		return "", errForbidden
	}
	err := q.decode(&d)
	return d.Body, err
}

var reviewStates = map[string]string{"COMMENT": "COMMENTED", "REQUEST_CHANGES": "CHANGES_REQUESTED", "APPROVE": "APPROVED", "": "PENDING"}

// createReview is all or nothing: one comment GitHub cannot place fails the
// whole review with 422, and nothing is stored.
func createReview(s *Server, q *request) (any, error) {
	var rr struct {
		CommitID string  `json:"commit_id"`
		Body     string  `json:"body"`
		Event    string  `json:"event"`
		Comments []draft `json:"comments"`
	}
	if err := q.decode(&rr); err != nil {
		return nil, err
	}
	if problem := reviewProblem(q, rr.CommitID, rr.Event, rr.Body, rr.Comments); problem != "" {
		return nil, fail(http.StatusUnprocessableEntity, "Unprocessable Entity", problem)
	}
	rv := &Review{ID: s.newID(), Body: rr.Body, State: reviewStates[rr.Event], User: q.who, CommitID: q.pr.HeadSHA, Comments: len(rr.Comments)}
	rv.NodeID = nodeID("PRR", rv.ID)
	for _, d := range rr.Comments {
		s.addComment(q.pr, d, q.who, rv.ID, q.now)
	}
	q.pr.Reviews = append(q.pr.Reviews, rv)
	return rv, nil
}

func reviewProblem(q *request, commitID, event, body string, comments []draft) string {
	switch {
	case commitID != "" && commitID != q.pr.HeadSHA:
		return "commit_id is not the head of the pull request"
	case event == "APPROVE" && q.who.AppSlug == "github-actions":
		return "GitHub Actions is not permitted to approve pull requests."
	case (event == "COMMENT" || event == "REQUEST_CHANGES") && body == "" && len(comments) == 0:
		return "Body is required when event is " + event
	case len(body) > 65536:
		return "Body is too long (maximum is 65536 characters)"
	}
	for _, d := range comments {
		if d.SubjectType != "" {
			return "subject_type is not accepted in review comments"
		}
		if msg := q.pr.check(d); msg != "" {
			return msg
		}
	}
	return ""
}

func updateReview(s *Server, q *request) (any, error) {
	id, _ := strconv.ParseInt(q.params["review_id"], 10, 64)
	rv := first(q.pr.Reviews, func(rv *Review) bool { return rv.ID == id })
	if rv == nil {
		return nil, errNotFound
	}
	body, err := ownBody(q, rv.User.Login)
	switch {
	case err != nil:
		return nil, err
	case len(body) > 65536:
		return nil, fail(http.StatusUnprocessableEntity, "Unprocessable Entity", "Body is too long (maximum is 65536 characters)")
	}
	rv.Body = body
	return rv, nil
}

type checkRequest struct {
	Name       string  `json:"name"`
	DetailsURL string  `json:"details_url"`
	ExternalID *string `json:"external_id"`
	HeadSHA    string  `json:"head_sha"`
	Status     string  `json:"status"`
	Conclusion string  `json:"conclusion"`
	Output     *struct {
		Title       *string          `json:"title"`
		Summary     *string          `json:"summary"`
		Text        *string          `json:"text"`
		Annotations []map[string]any `json:"annotations"`
	} `json:"output"`
}

// checkRun reads a check run's create or update. The description bounds
// its output (50 annotations, 65535 characters of summary and of text);
// GitHub also refuses an annotation that ends before it starts.
func checkRun(q *request) (checkRequest, error) {
	var cr checkRequest
	if err := q.decode(&cr); err != nil || cr.Output == nil {
		return cr, err
	}
	for i, a := range cr.Output.Annotations {
		start, _ := a["start_line"].(float64)
		end, _ := a["end_line"].(float64)
		if end < start {
			return cr, fail(http.StatusUnprocessableEntity, "Invalid request.", fmt.Sprintf("annotation %d: end_line is before start_line", i))
		}
	}
	return cr, nil
}

func createCheckRun(s *Server, q *request) (any, error) {
	if q.who.AppSlug == "" {
		return nil, fail(http.StatusForbidden, "You must authenticate via a GitHub App.")
	}
	cr, err := checkRun(q)
	if err != nil {
		return nil, err
	}
	run := &CheckRun{ID: s.newID(), Repo: q.repo, Name: cr.Name, HeadSHA: cr.HeadSHA, Status: orDefault(cr.Status, "queued"), App: q.who}
	run.apply(cr, q.now)
	s.checkRuns = append(s.checkRuns, run)
	return run.json(), nil
}

func (run *CheckRun) apply(cr checkRequest, now time.Time) {
	run.Requests++
	if cr.DetailsURL != "" {
		run.DetailsURL = cr.DetailsURL
	}
	if cr.ExternalID != nil {
		run.ExternalID = *cr.ExternalID
	}
	if cr.Conclusion != "" && run.Conclusion == "" {
		run.Completed = now
	}
	if cr.Conclusion != "" {
		run.Conclusion, run.Status = cr.Conclusion, "completed"
	} else if cr.Status != "" {
		run.Status = cr.Status
	}
	if o := cr.Output; o != nil {
		for dst, v := range map[*string]*string{&run.Title: o.Title, &run.Summary: o.Summary, &run.Text: o.Text} {
			if v != nil {
				*dst = *v
			}
		}
		run.Annotations = append(run.Annotations, o.Annotations...)
	}
}

func updateCheckRun(s *Server, q *request) (any, error) {
	id, _ := strconv.ParseInt(q.params["check_run_id"], 10, 64)
	run := first(s.checkRuns, func(r *CheckRun) bool { return r.ID == id && r.Repo == q.repo })
	switch {
	case run == nil:
		return nil, errNotFound
	case run.App.AppSlug != q.who.AppSlug:
		return nil, fail(http.StatusForbidden, "Invalid app_id `"+strconv.FormatInt(q.who.AppID, 10)+"` - check run can only be modified by the GitHub App that created it.")
	}
	cr, err := checkRun(q)
	if err != nil {
		return nil, err
	}
	run.apply(cr, q.now)
	return run.json(), nil
}

func (run *CheckRun) json() any {
	m := obj{"id": run.ID, "head_sha": run.HeadSHA, "name": run.Name, "status": run.Status,
		"external_id": run.ExternalID, "details_url": run.DetailsURL, "app": run.App.app(),
		"html_url": fmt.Sprintf("https://github.com/%s/runs/%d", run.Repo, run.ID),
		"output":   obj{"title": run.Title, "summary": run.Summary, "text": run.Text, "annotations_count": len(run.Annotations)}}
	if run.Conclusion != "" {
		m["conclusion"], m["completed_at"] = run.Conclusion, run.Completed.UTC()
	}
	return m
}

func listCheckRuns(s *Server, q *request) (any, error) {
	name := q.r.URL.Query().Get("check_name")
	var match []*CheckRun
	for i := len(s.checkRuns) - 1; i >= 0; i-- { // newest first
		r := s.checkRuns[i]
		if r.Repo == q.repo && r.HeadSHA == q.params["ref"] && (name == "" || r.Name == name) {
			match = append(match, r)
		}
	}
	return obj{"total_count": len(match), "check_runs": page(q, match, (*CheckRun).json)}, nil
}

func createStatus(s *Server, q *request) (any, error) {
	var st Status
	if err := q.decode(&st); err != nil {
		return nil, err
	}
	if utf8.RuneCountInString(st.Description) > 140 {
		return nil, fail(http.StatusUnprocessableEntity, "Validation Failed", obj{"resource": "Status", "code": "custom",
			"field": "description", "message": "description is too long (maximum is 140 characters)"})
	}
	st.Repo, st.SHA, st.Context, st.Creator = q.repo, q.params["sha"], orDefault(st.Context, "default"), q.who
	s.statuses = append(s.statuses, &st)
	// created_at and updated_at have no format in the description.
	return obj{"id": s.newID(), "state": st.State, "context": st.Context, "creator": q.who, "created_at": q.now, "updated_at": q.now}, nil
}

func uploadSARIF(s *Server, q *request) (any, error) {
	var up SARIFUpload // SARIF is gzipped in the request
	if err := q.decode(&up); err != nil {
		return nil, err
	}
	if len(up.SARIF) > s.opt.SARIFMaxGzip {
		return nil, fail(http.StatusRequestEntityTooLarge, fmt.Sprintf("SARIF upload is too large: %d bytes gzipped, the limit is %d", len(up.SARIF), s.opt.SARIFMaxGzip))
	}
	zr, err := gzip.NewReader(bytes.NewReader(up.SARIF))
	if err == nil {
		up.SARIF, err = io.ReadAll(zr)
	}
	if err != nil {
		return nil, fail(http.StatusBadRequest, "Invalid request.", "sarif is not gzip: "+err.Error())
	}
	up.ID, up.Repo, up.Status = fmt.Sprintf("47177e22-5596-11eb-80a1-c1e54ef945c6-%d", s.newID()), q.repo, "pending"
	s.uploads = append(s.uploads, &up)
	return obj{"id": up.ID}, nil
}

func getSARIF(s *Server, q *request) (any, error) {
	up := first(s.uploads, func(u *SARIFUpload) bool { return u.ID == q.params["sarif_id"] && u.Repo == q.repo })
	if up == nil {
		return nil, errNotFound
	}
	up.polls++
	if up.Status == "pending" && up.polls > s.opt.PendingPolls {
		up.Errors = append(sarifProblems(up.SARIF), s.sarifFail[up.CommitSHA]...)
		up.Status = "complete"
		if len(up.Errors) > 0 {
			up.Status = "failed"
		}
	}
	out := obj{"processing_status": up.Status}
	if up.Status == "failed" {
		out["errors"] = up.Errors
	}
	return out, nil
}

// sarifProblems checks what GitHub checks first: a SARIF 2.1.0 log with runs.
func sarifProblems(raw []byte) []string {
	var log struct {
		Version string            `json:"version"`
		Runs    []json.RawMessage `json:"runs"`
	}
	switch err := json.Unmarshal(raw, &log); {
	case err != nil:
		return []string{"could not parse the SARIF file: " + err.Error()}
	case log.Version != "2.1.0":
		return []string{fmt.Sprintf("unsupported SARIF version %q; expected 2.1.0", log.Version)}
	case log.Runs == nil:
		return []string{"instance requires property \"runs\""}
	case len(log.Runs) > 20:
		return []string{fmt.Sprintf("SARIF file has %d runs; the limit is 20", len(log.Runs))}
	}
	return nil
}

func getPermission(s *Server, q *request) (any, error) {
	p, ok := s.perms[q.repo+"/"+q.params["username"]]
	if !ok {
		return nil, errNotFound
	}
	user := obj{"login": p.who.Login, "id": p.who.ID, "type": p.who.Type, "role_name": p.role}
	return obj{"permission": p.permission, "role_name": p.role, "user": user}, nil
}

func listIssueComments(s *Server, q *request) (any, error) {
	return page(q, s.issueComments[q.repo+"#"+q.params["issue_number"]], nil), nil
}

func createIssueComment(s *Server, q *request) (any, error) {
	c := &IssueComment{ID: s.newID(), Repo: q.repo, User: q.who, Created: q.now}
	if err := q.decode(c); err != nil {
		return nil, err
	}
	if utf8.RuneCountInString(c.Body) > 65536 {
		return nil, fail(http.StatusUnprocessableEntity, "Validation Failed", obj{"resource": "IssueComment", "code": "custom",
			"field": "body", "message": "body is too long (maximum is 65536 characters)"})
	}
	c.Number, _ = strconv.Atoi(q.params["issue_number"])
	key := q.repo + "#" + q.params["issue_number"]
	s.issueComments[key] = append(s.issueComments[key], c)
	return c, nil
}

// getRepo answers GET /repos/{owner}/{repo}, which only a peer tool sends.
func getRepo(s *Server, q *request) (any, error) {
	return obj{"name": q.params["repo"], "full_name": q.repo, "owner": obj{"login": q.params["owner"]},
		"html_url": "https://github.com/" + q.repo, "default_branch": "main"}, nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
