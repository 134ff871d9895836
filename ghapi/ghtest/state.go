package ghtest

import (
	"fmt"
	"slices"
	"sort"
	"time"
)

// File is one file of a pull request, given by its contents at the base and
// at the head. Base "" is an added file, Head "" a removed one.
type File struct {
	Path string
	Base string
	Head string
	// Binary files are listed without a patch, as GitHub lists them.
	Binary bool
	// Previous is the path the file had at the base when the pull request
	// renames it (Base is its content there): GitHub lists it with status
	// renamed and previous_filename, and, when the content is the same,
	// without a patch.
	Previous string
}

type prFile struct {
	File
	status      string
	patch       string
	additions   int
	deletions   int
	right, left map[int]int // commentable line -> hunk index
}

// Comment is a review comment as the emulator stores it.
type Comment struct {
	ID           int64     `json:"id"`
	NodeID       string    `json:"node_id"`
	ReviewID     int64     `json:"pull_request_review_id"`
	Path         string    `json:"path"`
	Line         int       `json:"line,omitempty"` // 0: outdated or file-level
	StartLine    int       `json:"start_line,omitempty"`
	Side         string    `json:"side,omitempty"`
	StartSide    string    `json:"start_side,omitempty"`
	OriginalLine int       `json:"original_line,omitempty"`
	Body         string    `json:"body"`
	User         Identity  `json:"user"`
	CommitID     string    `json:"commit_id"`
	SubjectType  string    `json:"subject_type"` // "line" or "file"
	ThreadID     string    `json:"-"`
	InReplyTo    int64     `json:"in_reply_to_id,omitempty"` // the comment a reply answers (Server.Reply)
	Created      time.Time `json:"created_at"`
	Updated      time.Time `json:"updated_at"`
}

// Thread is a review thread: its first comment and replies.
type Thread struct {
	ID         string
	CommentIDs []int64
	Resolved   bool
	ResolvedBy string // login of who resolved it
	Outdated   bool
}

// Review is a submitted pull request review.
type Review struct {
	ID       int64    `json:"id"`
	NodeID   string   `json:"node_id"`
	Body     string   `json:"body"`
	State    string   `json:"state"`
	User     Identity `json:"user"`
	CommitID string   `json:"commit_id"`
	Comments int      `json:"-"`
}

// PullRequest is the emulator's state of one pull request.
type PullRequest struct {
	Repo    string
	Number  int
	HeadSHA string
	// Commits are the heads pushed so far, oldest first, as
	// GET /pulls/{n}/commits lists them (up to 250).
	Commits []string
	// Base is the base branch ("main" when unset); MergeCommitSHA is set
	// once the pull request is merged (Server.Merge).
	Base           string
	MergeCommitSHA string
	// BaseSHA is the base commit GET /pulls/{n} answers (DefaultBaseSHA
	// when unset).
	BaseSHA  string
	files    []*prFile
	Comments []*Comment
	Threads  []*Thread
	Reviews  []*Review
}

// CheckRun is a check run as created and updated.
type CheckRun struct {
	ID          int64
	Repo        string
	Name        string
	HeadSHA     string
	Status      string
	Conclusion  string
	Title       string
	Summary     string
	Text        string
	Annotations []map[string]any
	DetailsURL  string
	ExternalID  string
	App         Identity
	Requests    int       // create plus updates
	Completed   time.Time // when the conclusion was set
}

// Status is a commit status.
type Status struct {
	Repo, SHA   string
	State       string `json:"state"`
	Context     string `json:"context"`
	Description string `json:"description"`
	TargetURL   string `json:"target_url"`
	Creator     Identity
}

// SARIFUpload is one code scanning upload.
type SARIFUpload struct {
	ID          string
	Repo        string
	CommitSHA   string `json:"commit_sha"`
	Ref         string `json:"ref"`
	CheckoutURI string `json:"checkout_uri"`
	ToolName    string `json:"tool_name"`
	SARIF       []byte `json:"sarif"` // decompressed
	Status      string // pending, complete, failed
	Errors      []string
	polls       int
}

// IssueComment is a comment on a pull request's conversation (the issues
// API), as the emulator stores it.
type IssueComment struct {
	ID      int64     `json:"id"`
	Repo    string    `json:"-"`
	Number  int       `json:"-"`
	Body    string    `json:"body"`
	User    Identity  `json:"user"`
	Created time.Time `json:"created_at"`
}

type permission struct {
	who              Identity
	permission, role string
}

// MaxListedFiles is the most files GET /pulls/{n}/files lists; the rest
// of a larger pull request are not listed at all (GET /pulls/{n} still
// counts them in changed_files).
const MaxListedFiles = 3000

// DefaultBaseSHA is the base commit of a pull request whose BaseSHA is
// not set.
const DefaultBaseSHA = "9049f1265b7d61be4a8904a9a27120d2064dab3b"

// SetHead replaces the pull request's head commit and files. Patches are
// recomputed; existing line comments follow their lines into the new head
// or become outdated, as on GitHub.
func (pr *PullRequest) setHead(sha string, files []File) {
	old := map[string]*prFile{}
	for _, f := range pr.files {
		old[f.Path] = f
	}
	pr.HeadSHA = sha
	if n := len(pr.Commits); n == 0 || pr.Commits[n-1] != sha {
		pr.Commits = append(pr.Commits, sha)
	}
	pr.files = nil
	for _, f := range files {
		pr.files = append(pr.files, newPRFile(f))
	}
	sort.Slice(pr.files, func(i, j int) bool { return pr.files[i].Path < pr.files[j].Path })
	for _, c := range pr.Comments {
		if c.SubjectType == "file" || c.Line == 0 {
			continue
		}
		pr.relocate(c, old[c.Path])
	}
}

// relocate follows a line comment into the new head: it keeps its lines
// where they survive, on the head side, within one hunk; else it is
// outdated.
func (pr *PullRequest) relocate(c *Comment, before *prFile) {
	now, m := pr.file(c.Path), map[int]int{}
	if before != nil && now != nil {
		for _, l := range editScript(splitLines(before.Head), splitLines(now.Head)) {
			if l.op == ' ' {
				m[l.old] = l.new
			}
		}
	}
	line, ok := m[c.Line]
	start, sok := m[c.StartLine]
	if !ok || c.StartLine > 0 && !sok || c.Side != "RIGHT" || now.checkLine("RIGHT", line, "", start) != "" {
		pr.outdate(c)
		return
	}
	c.Line, c.StartLine, c.CommitID = line, start, pr.HeadSHA
}

func (pr *PullRequest) outdate(c *Comment) {
	c.Line, c.StartLine = 0, 0
	if t := pr.thread(c.ThreadID); t != nil {
		t.Outdated = true
	}
}

func newPRFile(f File) *prFile {
	pf := &prFile{File: f, status: "modified", right: map[int]int{}, left: map[int]int{}}
	switch {
	case f.Base == "":
		pf.status = "added"
	case f.Head == "":
		pf.status = "removed"
	}
	if f.Previous != "" {
		pf.status = "renamed"
	}
	if f.Binary {
		return pf // no lines to comment on, no patch
	}
	hs := hunks(editScript(splitLines(f.Base), splitLines(f.Head)))
	for k, h := range hs {
		for _, l := range h.lines {
			switch l.op {
			case '+':
				pf.additions++
				pf.right[l.new] = k
			case '-':
				pf.deletions++
				pf.left[l.old] = k
			default:
				pf.right[l.new] = k
				pf.left[l.old] = k
			}
		}
	}
	pf.patch = formatPatch(hs)
	return pf
}

func (pr *PullRequest) file(path string) *prFile {
	return first(pr.files, func(f *prFile) bool { return f.Path == path })
}

func (pr *PullRequest) thread(id string) *Thread {
	return first(pr.Threads, func(t *Thread) bool { return t.ID == id })
}

func (pr *PullRequest) comment(id int64) *Comment {
	return first(pr.Comments, func(c *Comment) bool { return c.ID == id })
}

// first returns the first element of xs that match accepts, or nil.
func first[T any](xs []*T, match func(*T) bool) *T {
	if i := slices.IndexFunc(xs, match); i >= 0 {
		return xs[i]
	}
	return nil
}

// Change returns how the pull request changes path, as the emulator
// lists it: its status ("" when it does not change it), its patch ("" if
// none is served) and whether it is binary.
func (pr *PullRequest) Change(path string) (status, patch string, binary bool) {
	if f := pr.file(path); f != nil {
		return f.status, f.patch, f.Binary
	}
	return "", "", false
}

// side returns the hunk of each line of a side of the diff ("LEFT" is
// the base, anything else the head).
func (f *prFile) side(side string) map[int]int {
	if side == "LEFT" {
		return f.left
	}
	return f.right
}

// checkLine reports why a comment at (side, line) with an optional start
// cannot be placed, or "" when GitHub would accept it.
func (f *prFile) checkLine(side string, line int, startSide string, start int) string {
	k, ok := f.side(side)[line]
	if !ok {
		return "pull_request_review_thread.line must be part of the diff"
	}
	if start == 0 {
		return ""
	}
	if startSide == "" {
		startSide = side
	}
	ks, ok := f.side(startSide)[start]
	if !ok {
		return "pull_request_review_thread.start_line must be part of the diff"
	}
	if ks != k || (startSide == side && start > line) {
		return "pull_request_review_thread.start_line must be part of the same hunk as the line."
	}
	return ""
}

// check returns GitHub's complaint about d, or "".
func (pr *PullRequest) check(d draft) string {
	f := pr.file(d.Path)
	switch {
	case f == nil:
		return "Path could not be resolved"
	case len(d.Body) > 65536:
		return "Body is too long (maximum is 65536 characters)"
	case d.SubjectType == "file":
		return ""
	case d.Position > 0:
		return "the emulator does not accept legacy position comments; use line and side"
	case d.Line == 0:
		return "Line could not be resolved"
	}
	side := d.Side
	if side == "" {
		side = "RIGHT"
	}
	return f.checkLine(side, d.Line, d.StartSide, d.StartLine)
}

func (s *Server) addComment(pr *PullRequest, d draft, who Identity, reviewID int64, now time.Time) *Comment {
	id := s.newID()
	c := &Comment{
		ID: id, NodeID: nodeID("PRRC", id), ReviewID: reviewID, Path: d.Path, Body: d.Body,
		User: who, CommitID: pr.HeadSHA, SubjectType: "line", Created: now, Updated: now,
	}
	if d.SubjectType == "file" {
		c.SubjectType = "file"
	} else {
		c.Side, c.Line, c.OriginalLine = orDefault(d.Side, "RIGHT"), d.Line, d.Line
		if d.StartLine > 0 {
			c.StartLine, c.StartSide = d.StartLine, orDefault(d.StartSide, c.Side)
		}
	}
	t := &Thread{ID: nodeID("PRRT", id), CommentIDs: []int64{id}}
	c.ThreadID = t.ID
	pr.Comments = append(pr.Comments, c)
	pr.Threads = append(pr.Threads, t)
	return c
}

// deleteComment removes c, and its thread when c was the thread's last.
func (pr *PullRequest) deleteComment(c *Comment) {
	pr.Comments = slices.DeleteFunc(pr.Comments, func(x *Comment) bool { return x == c })
	t := pr.thread(c.ThreadID)
	t.CommentIDs = slices.DeleteFunc(t.CommentIDs, func(id int64) bool { return id == c.ID })
	if len(t.CommentIDs) == 0 {
		pr.Threads = slices.DeleteFunc(pr.Threads, func(x *Thread) bool { return x == t })
	}
}

func nodeID(prefix string, id int64) string { return fmt.Sprintf("%s_%d", prefix, id) }
