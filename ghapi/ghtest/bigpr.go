package ghtest

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// What GitHub does to big and busy pull requests (docs/github.md, "Big
// and busy pull requests"), which the emulator does too:
//
//   - GET /pulls/{n}/files lists at most MaxListedFiles files; the rest of
//     a larger pull request are not listed at all (GET /pulls/{n} still
//     counts them in changed_files);
//   - a binary file, and a file whose patch is longer than
//     Options.MaxPatchBytes, is listed without a patch;
//   - a push can come at any moment of a run (PushAfter);
//   - a write can be refused by a secondary rate limit (InjectWrite).

// MaxListedFiles is the most files GET /pulls/{n}/files lists.
const MaxListedFiles = 3000

// listedFiles are the files GET /pulls/{n}/files lists.
func (pr *PullRequest) listedFiles() []*prFile {
	return pr.files[:min(len(pr.files), MaxListedFiles)]
}

// getPull answers GET /pulls/{n}: GitHub's example pull request with this
// one's number, state, head, base and counts put in.
func getPull(s *Server, w http.ResponseWriter, q *request) {
	pr := s.prOf(w, q)
	if pr == nil {
		return
	}
	var ex struct {
		PR map[string]any `json:"pull-request"`
	}
	if err := json.Unmarshal(examplesJSON, &ex); err != nil || ex.PR == nil {
		panic(fmt.Sprintf("ghtest: openapi/examples.json: %v", err))
	}
	m := ex.PR
	simple := pr.simpleJSON(q.now)
	for _, k := range []string{"url", "number", "id", "node_id", "html_url", "state", "merged_at", "closed_at", "merge_commit_sha", "requested_teams", "requested_reviewers"} {
		m[k] = simple[k]
	}
	head, _ := m["head"].(map[string]any)
	head["sha"] = pr.HeadSHA
	b, _ := m["base"].(map[string]any)
	sb, _ := simple["base"].(map[string]any)
	b["ref"], b["label"], b["sha"] = sb["ref"], sb["label"], pr.baseSHA()
	adds, dels := 0, 0
	for _, f := range pr.files {
		adds, dels = adds+f.additions, dels+f.deletions
	}
	m["changed_files"], m["additions"], m["deletions"], m["commits"] = len(pr.files), adds, dels, len(pr.Commits)
	m["merged"] = pr.MergeCommitSHA != ""
	m["merged_by"] = nil
	writeJSON(w, http.StatusOK, m)
}

// DefaultBaseSHA is the base commit of a pull request whose BaseSHA is
// not set.
const DefaultBaseSHA = "9049f1265b7d61be4a8904a9a27120d2064dab3b"

func (pr *PullRequest) baseSHA() string {
	if pr.BaseSHA != "" {
		return pr.BaseSHA
	}
	return DefaultBaseSHA
}

// hook is something done to the state once a request has been served.
type hook struct {
	op  string // the operation counted ("graphql/<name>" for GraphQL), "" for any
	nth int    // after the nth such request
	do  func(s *Server)
}

// PushAfter pushes sha with these files to the pull request repo#number
// right after the nth request of operation op ("" for any request) has
// been answered: a push that lands while a run is between its reads and
// its writes.
func (s *Server) PushAfter(op string, nth int, repo string, number int, sha string, files []File) {
	s.mu.Lock()
	defer s.mu.Unlock()
	at := s.counts[op] + nth
	if op == "" {
		at = s.served + nth
	}
	s.hooks = append(s.hooks, hook{op: op, nth: at, do: func(s *Server) { s.pr(repo, number).setHead(sha, files) }})
}

// answered notes one more answered request of op and runs the hooks it
// makes due. The caller holds s.mu.
func (s *Server) answered(op string) {
	s.served++
	kept := s.hooks[:0]
	for _, h := range s.hooks {
		due := h.op == "" && s.served >= h.nth || h.op != "" && h.op == op && s.counts[op] >= h.nth
		if due {
			h.do(s)
			continue
		}
		kept = append(kept, h)
	}
	s.hooks = kept
}

// InjectWrite queues faults that answer the writes (REST requests other
// than GET, GraphQL mutations) from the nth write from now on, one fault
// a write, in order: a secondary rate limit that starts mid-run.
func (s *Server) InjectWrite(nth int, faults ...Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writeFaultAt = s.writes + nth
	s.writeFaults = append(s.writeFaults, faults...)
}

// writeFault counts one more write and pops the fault that answers it.
// The caller holds s.mu.
func (s *Server) writeFault() (Fault, bool) {
	s.writes++
	if s.writeFaultAt == 0 || s.writes < s.writeFaultAt || len(s.writeFaults) == 0 {
		return Fault{}, false
	}
	f := s.writeFaults[0]
	s.writeFaults = s.writeFaults[1:]
	return f, true
}

// Writes is how many writes the emulator was sent, refused ones included.
func (s *Server) Writes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.writes
}
