package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// runContext is what the Action needs to know of the event that started
// the workflow: which commit to report on, which pull request (if any),
// and the previous head a verdict may be carried from.
type runContext struct {
	event     string // GITHUB_EVENT_NAME
	action    string // the event's "action" (opened, synchronize, …)
	pr        int    // 0 when the run is not about a pull request
	headSHA   string // the commit check runs and uploads are about
	beforeSHA string // the previous head of a synchronize, else ""
	ref       string // the ref code scanning files results under
	baseRef   string // the pull request's base branch, for scope files
	baseSHA   string // the pull request's base commit
	fork      bool   // the pull request comes from another repository
}

// eventPayload is the part of a webhook payload the Action reads.
type eventPayload struct {
	Action      string `json:"action"`
	Number      int    `json:"number"`
	Before      string `json:"before"`
	After       string `json:"after"`
	Ref         string `json:"ref"`
	PullRequest *struct {
		Number int `json:"number"`
		Head   struct {
			SHA  string `json:"sha"`
			Repo *struct {
				FullName string `json:"full_name"`
			} `json:"repo"`
		} `json:"head"`
		Base struct {
			Ref  string `json:"ref"`
			SHA  string `json:"sha"`
			Repo *struct {
				FullName string `json:"full_name"`
			} `json:"repo"`
		} `json:"base"`
	} `json:"pull_request"`
	MergeGroup *struct {
		HeadSHA string `json:"head_sha"`
		HeadRef string `json:"head_ref"`
		BaseRef string `json:"base_ref"`
	} `json:"merge_group"`
	WorkflowRun *struct {
		HeadSHA      string `json:"head_sha"`
		HeadBranch   string `json:"head_branch"`
		Event        string `json:"event"`
		PullRequests []struct {
			Number int `json:"number"`
			Head   struct {
				SHA string `json:"sha"`
			} `json:"head"`
			Base struct {
				Ref string `json:"ref"`
			} `json:"base"`
		} `json:"pull_requests"`
	} `json:"workflow_run"`
}

// readRunContext reads GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_SHA and
// GITHUB_REF. A missing event file is not an error (a local run); an
// unreadable or malformed one is.
func readRunContext(getenv func(string) string) (runContext, error) {
	rc := runContext{event: getenv("GITHUB_EVENT_NAME"), headSHA: getenv("GITHUB_SHA"), ref: getenv("GITHUB_REF")}
	path := getenv("GITHUB_EVENT_PATH")
	if path == "" {
		return rc, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return rc, fmt.Errorf("read the event payload: %w", err)
	}
	var p eventPayload
	if err := json.Unmarshal(data, &p); err != nil {
		return rc, fmt.Errorf("event payload %s: %w", path, err)
	}
	rc.action = p.Action
	switch {
	case p.PullRequest != nil:
		pr := p.PullRequest
		rc.pr, rc.headSHA, rc.baseRef, rc.baseSHA = pr.Number, pr.Head.SHA, pr.Base.Ref, pr.Base.SHA
		rc.ref = fmt.Sprintf("refs/pull/%d/head", pr.Number)
		if p.Action == "synchronize" {
			rc.beforeSHA = p.Before
		}
		rc.fork = pr.Head.Repo == nil || pr.Base.Repo == nil || pr.Head.Repo.FullName != pr.Base.Repo.FullName
	case p.MergeGroup != nil:
		rc.headSHA, rc.ref = p.MergeGroup.HeadSHA, p.MergeGroup.HeadRef
		rc.baseRef = strings.TrimPrefix(p.MergeGroup.BaseRef, "refs/heads/")
	case p.WorkflowRun != nil:
		// The safe fork pattern: the run being reported on is the one that
		// triggered this workflow, not this workflow's own commit.
		wr := p.WorkflowRun
		rc.headSHA = wr.HeadSHA
		rc.ref = "refs/heads/" + wr.HeadBranch
		// Only a pull request whose head is the run's commit is the one
		// reported on (GitHub lists every open pull request from the
		// branch); a fork's is never listed: pass the pull-request input.
		for _, pr := range wr.PullRequests {
			if pr.Head.SHA == wr.HeadSHA {
				rc.pr, rc.baseRef = pr.Number, pr.Base.Ref
				rc.ref = fmt.Sprintf("refs/pull/%d/head", rc.pr)
				break
			}
		}
	case p.After != "" && strings.Trim(p.After, "0") != "":
		rc.headSHA = p.After // push
		if p.Before != "" && strings.Trim(p.Before, "0") != "" {
			rc.beforeSHA = p.Before
		}
	}
	return rc, nil
}
