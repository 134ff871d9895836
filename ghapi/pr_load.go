package ghapi

import (
	"context"
	"fmt"
	"iter"

	"github.com/agcgate/agc-action/review"
	"github.com/google/go-github/v62/github"
)

const perPage = 100

// pages yields every item of a listing that GitHub splits into pages:
// list reads the page opt names, and the next page (Response.NextPage)
// is read once every item of one has been taken. A failed read yields its
// error and ends the listing; breaking out reads no further page.
func pages[T any](opt *github.ListOptions, list func() ([]T, *github.Response, error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for {
			items, resp, err := list()
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, it := range items {
				if !yield(it, nil) {
					return
				}
			}
			if resp.NextPage == 0 {
				return
			}
			opt.Page = resp.NextPage
		}
	}
}

// LoadPR reads the pull request's files (with their patches), and the
// comments, reviews and review threads that this identity wrote.
func (c *Client) LoadPR(ctx context.Context, number int, headSHA string) (*review.PRState, error) {
	st := &review.PRState{Number: number, HeadSHA: headSHA, Diffs: map[string]*review.FileDiff{}, Threads: map[int64]review.Thread{}}
	if err := c.loadFiles(ctx, st); err != nil {
		return nil, err
	}
	if err := c.loadComments(ctx, st); err != nil {
		return nil, err
	}
	if err := c.loadReviews(ctx, st); err != nil {
		return nil, err
	}
	if len(st.Comments) == 0 {
		return st, nil
	}
	threads, err := c.threads(ctx, number)
	if err != nil {
		return nil, err
	}
	st.Threads = threads
	return st, nil
}

// noHunks are the statuses of a file listed without a patch that has no
// lines to comment on: a removed file, and a file renamed or copied (as
// GitHub lists a 100% rename or copy), which the clone's diff
// (--no-renames) would call all added, lines GitHub's diff lacks, so
// that GitHub would refuse the whole review.
var noHunks = map[string]bool{"removed": true, "renamed": true, "copied": true}

func (c *Client) loadFiles(ctx context.Context, st *review.PRState) error {
	opt := &github.ListOptions{PerPage: perPage}
	for f, err := range pages(opt, func() ([]*github.CommitFile, *github.Response, error) {
		return c.gh.PullRequests.ListFiles(ctx, c.cfg.Owner, c.cfg.Repo, st.Number, opt)
	}) {
		if err != nil {
			return wrap("list pull request files", err)
		}
		hunks, err := review.ParsePatch(f.GetPatch())
		if err != nil {
			return fmt.Errorf("pull request file %s: %w", f.GetFilename(), err)
		}
		d := review.NewFileDiff(f.GetFilename(), f.GetStatus(), hunks)
		d.NoPatch = f.GetPatch() == "" && !noHunks[f.GetStatus()]
		st.Diffs[f.GetFilename()] = d
	}
	return nil
}

func (c *Client) loadComments(ctx context.Context, st *review.PRState) error {
	opt := &github.PullRequestListCommentsOptions{ListOptions: github.ListOptions{PerPage: perPage}}
	for cm, err := range pages(&opt.ListOptions, func() ([]*github.PullRequestComment, *github.Response, error) {
		return c.gh.PullRequests.ListComments(ctx, c.cfg.Owner, c.cfg.Repo, st.Number, opt)
	}) {
		if err != nil {
			return wrap("list review comments", err)
		}
		if cm.GetUser().GetLogin() == c.cfg.Login {
			st.Comments = append(st.Comments, cm)
		}
	}
	return nil
}

func (c *Client) loadReviews(ctx context.Context, st *review.PRState) error {
	opt := &github.ListOptions{PerPage: perPage}
	for r, err := range pages(opt, func() ([]*github.PullRequestReview, *github.Response, error) {
		return c.gh.PullRequests.ListReviews(ctx, c.cfg.Owner, c.cfg.Repo, st.Number, opt)
	}) {
		if err != nil {
			return wrap("list reviews", err)
		}
		if r.GetUser().GetLogin() == c.cfg.Login {
			st.Reviews = append(st.Reviews, r)
		}
	}
	return nil
}
