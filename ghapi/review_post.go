package ghapi

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/review"
	"github.com/google/go-github/v62/github"
)

// ReviewOptions tune one gate's review.
type ReviewOptions struct {
	Mode review.FilterMode // default review.FilterAdded
	// Head reads files at the head commit, to turn patch remedies into
	// suggestions. Nil: no suggestions, positions from locations only.
	Head review.FileReader
	// MaxComments is the most inline comments one review carries (default
	// 100); more are split over several reviews.
	MaxComments int
}

// ReviewResult says what a review delivery did.
type ReviewResult struct {
	Placed     []review.Placed
	Reviews    int // reviews created
	Posted     int // new comments (inline and file-level)
	Edited     int // comments and review bodies edited
	Unchanged  int // comments left as they were
	Resolved   int // threads resolved (findings gone)
	Unresolved int // threads reopened (findings back)
}

// Review delivers the findings of r to the pull request as one review (and
// file-level comments), reconciled with what earlier runs posted: unchanged
// findings post nothing, changed ones are edited, gone ones are resolved.
func (c *Client) Review(ctx context.Context, st *review.PRState, r *agc.Response, opt ReviewOptions) (*ReviewResult, error) {
	if opt.Mode == "" {
		opt.Mode = review.FilterAdded
	}
	if opt.MaxComments <= 0 {
		opt.MaxComments = 100
	}
	gate := r.Gate.ID
	res := &ReviewResult{Placed: review.Place(r, st.Diffs, opt.Head, opt.Mode)}
	ex := review.IndexOwn(st, gate)
	var drafts []*github.DraftReviewComment
	var resolve, unresolve []string
	wantInline := map[string]bool{}
	// Two findings with one id (a response that breaks V7.unique-ids)
	// would take turns on one marked comment, run after run: the first
	// stays inline, the others go to the review body.
	for i := range res.Placed {
		p := &res.Placed[i]
		if p.Channel != review.ChannelInline {
			continue
		}
		if key := review.MarkerID(p.Finding.ID); wantInline[key] {
			p.Channel = review.ChannelBody
		} else {
			wantInline[key] = true
		}
	}
	for _, p := range res.Placed {
		if p.Channel != review.ChannelInline {
			continue
		}
		body, hash := review.InlineBody(gate, p)
		old, ok := ex.Inline[review.MarkerID(p.Finding.ID)]
		if !ok {
			drafts = append(drafts, draft(p, body))
			continue
		}
		if err := c.keep(ctx, st, old, body, hash, res, &unresolve); err != nil {
			return res, err
		}
	}
	if err := c.fileComments(ctx, st, gate, res, ex, &unresolve); err != nil {
		return res, err
	}
	for id, old := range ex.Inline {
		if !wantInline[id] {
			resolve = c.gone(st, old.Comment, resolve)
		}
	}
	for path, old := range ex.File {
		if !hasFileChannel(res.Placed, path) {
			resolve = c.gone(st, old.Comment, resolve)
		}
	}
	for _, cm := range ex.Dups {
		resolve = c.gone(st, cm, resolve)
	}
	sort.Strings(resolve)
	if err := c.reviews(ctx, st, r, drafts, ex, res, opt.MaxComments); err != nil {
		return res, err
	}
	if err := c.setResolved(ctx, unresolve, false); err != nil {
		return res, err
	}
	res.Unresolved = len(unresolve)
	if err := c.setResolved(ctx, resolve, true); err != nil {
		return res, err
	}
	res.Resolved = len(resolve)
	return res, nil
}

// keep brings an existing comment up to date: an edit when its text
// changed, reopening its thread when the finding came back.
func (c *Client) keep(ctx context.Context, st *review.PRState, old review.OwnComment, body, hash string, res *ReviewResult, unresolve *[]string) error {
	// Reopen only a thread this identity resolved (its finding had gone
	// and is back); one a person resolved stays as they left it.
	if t, ok := st.Threads[old.Comment.GetID()]; ok && t.Resolved && sameLogin(t.ResolvedBy, c.cfg.Login) {
		*unresolve = append(*unresolve, t.ID)
	}
	if old.Hash == hash {
		res.Unchanged++
		return nil
	}
	_, _, err := c.gh.PullRequests.EditComment(ctx, c.cfg.Owner, c.cfg.Repo, old.Comment.GetID(), &github.PullRequestComment{Body: &body})
	if err != nil {
		return wrap(fmt.Sprintf("edit review comment %d", old.Comment.GetID()), err)
	}
	res.Edited++
	return nil
}

// gone queues the thread of a comment whose findings are gone.
func (c *Client) gone(st *review.PRState, cm *github.PullRequestComment, resolve []string) []string {
	if t, ok := st.Threads[cm.GetID()]; ok && !t.Resolved {
		return append(resolve, t.ID)
	}
	return resolve
}

func draft(p review.Placed, body string) *github.DraftReviewComment {
	d := &github.DraftReviewComment{Path: github.String(p.Pos.Path), Body: github.String(body),
		Line: github.Int(p.Pos.End), Side: github.String("RIGHT")}
	if p.Pos.Start < p.Pos.End {
		d.StartLine, d.StartSide = github.Int(p.Pos.Start), github.String("RIGHT")
	}
	return d
}

func hasFileChannel(ps []review.Placed, path string) bool {
	for _, p := range ps {
		if p.Channel == review.ChannelFile && p.Pos.Path == path {
			return true
		}
	}
	return false
}

// fileComments posts or updates one file-level comment per file holding
// findings that cannot be inline.
func (c *Client) fileComments(ctx context.Context, st *review.PRState, gate string, res *ReviewResult, ex review.Own, unresolve *[]string) error {
	byPath := map[string][]review.Placed{}
	var order []string
	for _, p := range res.Placed {
		if p.Channel == review.ChannelFile {
			if byPath[p.Pos.Path] == nil {
				order = append(order, p.Pos.Path)
			}
			byPath[p.Pos.Path] = append(byPath[p.Pos.Path], p)
		}
	}
	for _, path := range order {
		body, hash := review.FileBody(gate, path, byPath[path])
		if old, ok := ex.File[path]; ok {
			if err := c.keep(ctx, st, old, body, hash, res, unresolve); err != nil {
				return err
			}
			continue
		}
		cm := &github.PullRequestComment{Body: &body, Path: github.String(path), CommitID: github.String(st.HeadSHA), SubjectType: github.String("file")}
		if _, _, err := c.gh.PullRequests.CreateComment(ctx, c.cfg.Owner, c.cfg.Repo, st.Number, cm); err != nil {
			return wrap("create file comment on "+path, err)
		}
		res.Posted++
	}
	return nil
}

// sameLogin compares a GraphQL login with a REST one: GraphQL names the
// Actions bot "github-actions", REST "github-actions[bot]".
func sameLogin(a, b string) bool {
	return strings.TrimSuffix(a, "[bot]") == strings.TrimSuffix(b, "[bot]")
}
