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
	"strconv"
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
	// Deleted is a push that deleted its ref (after all zeros): there is
	// no commit to report on, and HeadSHA is "".
	Deleted bool
	// QueuedPR is, on merge_group, the pull request the group was made
	// for (merge_group.head_ref names it): its heads are where a verdict
	// may be carried from. It is not PR: nothing is posted on it.
	QueuedPR int
	// Branch is the branch a push went to ("" for a tag): after a merge,
	// the base branch of the merged pull request.
	Branch string
}

// eventPayload is the part of a webhook payload the Action reads.
type eventPayload struct {
	Action     string `json:"action"`
	Number     int    `json:"number"`
	Before     string `json:"before"`
	After      string `json:"after"`
	Ref        string `json:"ref"`
	Deleted    bool   `json:"deleted"`
	Repository *struct {
		DefaultBranch string `json:"default_branch"`
	} `json:"repository"`
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
		HeadSHA      string       `json:"head_sha"`
		HeadBranch   string       `json:"head_branch"`
		Event        string       `json:"event"`
		PullRequests []listedPull `json:"pull_requests"`
	} `json:"workflow_run"`
	CheckSuite *struct {
		HeadSHA      string       `json:"head_sha"`
		HeadBranch   string       `json:"head_branch"`
		PullRequests []listedPull `json:"pull_requests"`
	} `json:"check_suite"`
	CheckRun *struct {
		HeadSHA    string `json:"head_sha"`
		CheckSuite struct {
			HeadBranch string `json:"head_branch"`
		} `json:"check_suite"`
		PullRequests []listedPull `json:"pull_requests"`
	} `json:"check_run"`
}

// listedPull is a pull request as workflow_run and check_suite list them.
type listedPull struct {
	Number int `json:"number"`
	Head   struct {
		SHA string `json:"sha"`
	} `json:"head"`
	Base struct {
		Ref string `json:"ref"`
	} `json:"base"`
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
		rc.QueuedPR = QueuedPR(p.MergeGroup.HeadRef, rc.BaseRef)
	case p.WorkflowRun != nil:
		// The safe fork pattern: the run being reported on is the one that
		// triggered this workflow, not this workflow's own commit.
		wr := p.WorkflowRun
		rc.reportOn(wr.HeadSHA, wr.HeadBranch, wr.PullRequests)
	case p.CheckSuite != nil:
		// A re-run asked for on a commit: the workflow runs on the default
		// branch (GITHUB_SHA is its head), the suite is about head_sha.
		cs := p.CheckSuite
		rc.reportOn(cs.HeadSHA, cs.HeadBranch, cs.PullRequests)
	case p.CheckRun != nil:
		// The same for a re-run of one check run: it is about its head_sha.
		cr := p.CheckRun
		rc.reportOn(cr.HeadSHA, cr.CheckSuite.HeadBranch, cr.PullRequests)
	case p.Deleted || (p.After != "" && strings.Trim(p.After, "0") == ""):
		// A deletion push: GITHUB_SHA is then the default branch's head,
		// which nothing was pushed to.
		rc.HeadSHA, rc.Deleted = "", true
	case p.After != "":
		rc.HeadSHA = p.After // push
		if p.Before != "" && strings.Trim(p.Before, "0") != "" {
			rc.BeforeSHA = p.Before
		}
		if b, ok := strings.CutPrefix(p.Ref, "refs/heads/"); ok {
			rc.Branch = b
			// The scope file of a push to the default branch is read from
			// that branch: what was pushed there was merged through review.
			if p.Repository != nil && p.Repository.DefaultBranch == b {
				rc.BaseRef = b
			}
		}
	}
	return rc, nil
}

// reportOn sets the commit a workflow_run or check_suite event is about,
// and the pull request listed whose head is that commit: GitHub lists
// every open pull request from the branch, whatever its head, and never a
// fork's (pass the pull-request input then).
func (rc *Context) reportOn(sha, branch string, prs []listedPull) {
	rc.HeadSHA = sha
	rc.Ref = "refs/heads/" + branch
	for _, pr := range prs {
		if pr.Head.SHA == sha {
			rc.PR, rc.BaseRef = pr.Number, pr.Base.Ref
			rc.Ref = fmt.Sprintf("refs/pull/%d/head", rc.PR)
			return
		}
	}
}

// QueuedPR is the number of the pull request a merge queue's branch is
// for, refs/heads/gh-readonly-queue/BASE/pr-N-SHA; 0 when ref is not such
// a branch of base.
func QueuedPR(ref, base string) int {
	rest, ok := strings.CutPrefix(ref, "refs/heads/gh-readonly-queue/"+base+"/pr-")
	if !ok || base == "" {
		return 0
	}
	num, sha, ok := strings.Cut(rest, "-")
	if !ok || sha == "" || strings.Contains(sha, "/") {
		return 0
	}
	n, err := strconv.Atoi(num)
	if err != nil || n <= 0 || strconv.Itoa(n) != num {
		return 0
	}
	return n
}

// CheckoutExpr is the workflow expression that names the commit this
// event reports on, for advice to check it out or fetch it.
func (rc *Context) CheckoutExpr() string {
	switch rc.Event {
	case "workflow_run":
		return "${{ github.event.workflow_run.head_sha }}"
	case "check_suite":
		return "${{ github.event.check_suite.head_sha }}"
	case "check_run":
		return "${{ github.event.check_run.head_sha }}"
	case "merge_group":
		return "${{ github.event.merge_group.head_sha }}"
	case "pull_request", "pull_request_target":
		return "${{ github.event.pull_request.head.sha }}"
	}
	return "${{ github.sha }}"
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
