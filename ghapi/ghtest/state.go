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
	ID           int64
	NodeID       string
	ReviewID     int64
	Path         string
	Line         int // 0: outdated or file-level
	StartLine    int
	Side         string
	StartSide    string
	OriginalLine int
	Body         string
	User         Identity
	CommitID     string
	SubjectType  string // "line" or "file"
	ThreadID     string
	Created      time.Time
	Updated      time.Time
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
	ID       int64
	NodeID   string
	Body     string
	State    string
	User     Identity
	CommitID string
	Comments int
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
	Repo, SHA, State, Context, Description, TargetURL string
	Creator                                           Identity
}

// SARIFUpload is one code scanning upload.
type SARIFUpload struct {
	ID          string
	Repo        string
	CommitSHA   string
	Ref         string
	CheckoutURI string
	ToolName    string
	SARIF       []byte // decompressed
	Status      string // pending, complete, failed
	Errors      []string
	polls       int
}

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

func (pr *PullRequest) relocate(c *Comment, before *prFile) {
	now := pr.file(c.Path)
	if before == nil || now == nil {
		pr.outdate(c)
		return
	}
	m := lineMap(splitLines(before.Head), splitLines(now.Head))
	line, ok := m[c.Line]
	start := 0
	if c.StartLine > 0 {
		s, sok := m[c.StartLine]
		ok = ok && sok
		start = s
	}
	if !ok || c.Side != "RIGHT" {
		pr.outdate(c)
		return
	}
	hunkEnd, inEnd := now.right[line]
	if !inEnd || (start > 0 && now.right[start] != hunkEnd) {
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

// Patch returns the patch the emulator serves for path ("" if none).
func (pr *PullRequest) Patch(path string) string {
	if f := pr.file(path); f != nil {
		return f.patch
	}
	return ""
}

// Status returns the status the emulator lists for path ("" if the pull
// request does not change it).
func (pr *PullRequest) Status(path string) string {
	if f := pr.file(path); f != nil {
		return f.status
	}
	return ""
}

// IsBinary reports whether path is a binary file of the pull request.
func (pr *PullRequest) IsBinary(path string) bool {
	f := pr.file(path)
	return f != nil && f.Binary
}

// HeadFile returns a file's content at the head commit.
func (pr *PullRequest) HeadFile(path string) (string, bool) {
	if f := pr.file(path); f != nil && f.status != "removed" {
		return f.Head, true
	}
	return "", false
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

func nodeID(prefix string, id int64) string { return fmt.Sprintf("%s_%d", prefix, id) }
