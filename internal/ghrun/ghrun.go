// Package ghrun reads the GitHub Actions run a command was started by:
// the event, the repository, the pull request and the commits it is about
// (docs/action.md, 1). The Action, "agc-sarif github" and "agc-sarif carry
// --github" take their defaults from it. It reads the environment it is
// given and the event payload file GITHUB_EVENT_PATH names; nothing else.
package ghrun

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// Context is what a command needs to know of the event that started the
// workflow: which commit to report on, which pull request (if any), and
// the previous head a verdict may be carried from.
type Context struct {
	Event      string // GITHUB_EVENT_NAME
	Action     string // the event's "action" (opened, synchronize, …)
	Repository string // GITHUB_REPOSITORY, OWNER/NAME
	PR         int    // 0 when the run is not about a pull request
	HeadSHA    string // the commit check runs and uploads are about
	BeforeSHA  string // the previous head of a synchronize, else ""
	Ref        string // the ref code scanning files results under
	BaseRef    string // the pull request's base branch, for scope files
	BaseSHA    string // the pull request's base commit
	Fork       bool   // the pull request comes from another repository
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

// Read reads GITHUB_EVENT_NAME, GITHUB_REPOSITORY, GITHUB_EVENT_PATH,
// GITHUB_SHA and GITHUB_REF. A missing event file is not an error (a local
// run); an unreadable or malformed one is.
func Read(getenv func(string) string) (Context, error) {
	rc := Context{Event: getenv("GITHUB_EVENT_NAME"), Repository: getenv("GITHUB_REPOSITORY"), HeadSHA: getenv("GITHUB_SHA"), Ref: getenv("GITHUB_REF")}
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
	rc.Action = p.Action
	switch {
	case p.PullRequest != nil:
		pr := p.PullRequest
		rc.PR, rc.HeadSHA, rc.BaseRef, rc.BaseSHA = pr.Number, pr.Head.SHA, pr.Base.Ref, pr.Base.SHA
		rc.Ref = fmt.Sprintf("refs/pull/%d/head", pr.Number)
		if p.Action == "synchronize" {
			rc.BeforeSHA = p.Before
		}
		rc.Fork = pr.Head.Repo == nil || pr.Base.Repo == nil || pr.Head.Repo.FullName != pr.Base.Repo.FullName
	case p.MergeGroup != nil:
		rc.HeadSHA, rc.Ref = p.MergeGroup.HeadSHA, p.MergeGroup.HeadRef
		rc.BaseRef = strings.TrimPrefix(p.MergeGroup.BaseRef, "refs/heads/")
	case p.WorkflowRun != nil:
		// The safe fork pattern: the run being reported on is the one that
		// triggered this workflow, not this workflow's own commit.
		wr := p.WorkflowRun
		rc.HeadSHA = wr.HeadSHA
		rc.Ref = "refs/heads/" + wr.HeadBranch
		// Only a pull request whose head is the run's commit is the one
		// reported on (GitHub lists every open pull request from the
		// branch); a fork's is never listed: pass the pull-request input.
		for _, pr := range wr.PullRequests {
			if pr.Head.SHA == wr.HeadSHA {
				rc.PR, rc.BaseRef = pr.Number, pr.Base.Ref
				rc.Ref = fmt.Sprintf("refs/pull/%d/head", rc.PR)
				break
			}
		}
	case p.After != "" && strings.Trim(p.After, "0") != "":
		rc.HeadSHA = p.After // push
		if p.Before != "" && strings.Trim(p.Before, "0") != "" {
			rc.BeforeSHA = p.Before
		}
	}
	return rc, nil
}

// SplitRepo splits OWNER/NAME; flag names the option it came from, for
// the message.
func SplitRepo(flag, s string) (owner, name string, err error) {
	owner, name, ok := strings.Cut(s, "/")
	if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
		return "", "", fmt.Errorf("%s %q is not OWNER/NAME (or set GITHUB_REPOSITORY)", flag, s)
	}
	return owner, name, nil
}

// RunURL is the page of this workflow run in repository repo, which check
// runs and statuses link to; "" outside a workflow run.
func RunURL(getenv func(string) string, repo string) string {
	srv, run := getenv("GITHUB_SERVER_URL"), getenv("GITHUB_RUN_ID")
	if srv == "" || repo == "" || run == "" {
		return ""
	}
	return strings.TrimSuffix(srv, "/") + "/" + repo + "/actions/runs/" + run
}
