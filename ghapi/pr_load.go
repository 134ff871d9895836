package ghapi

import (
	"context"
	"fmt"

	"github.com/agcgate/agc-action/review"
	"github.com/google/go-github/v62/github"
)

const perPage = 100

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
	for {
		files, resp, err := c.gh.PullRequests.ListFiles(ctx, c.cfg.Owner, c.cfg.Repo, st.Number, opt)
		if err != nil {
			return wrap("list pull request files", err)
		}
		for _, f := range files {
			hunks, err := review.ParsePatch(f.GetPatch())
			if err != nil {
				return fmt.Errorf("pull request file %s: %w", f.GetFilename(), err)
			}
			d := review.NewFileDiff(f.GetFilename(), f.GetStatus(), hunks)
			d.NoPatch = f.GetPatch() == "" && !noHunks[f.GetStatus()]
			st.Diffs[f.GetFilename()] = d
		}
		if resp.NextPage == 0 {
			return nil
		}
		opt.Page = resp.NextPage
	}
}

func (c *Client) loadComments(ctx context.Context, st *review.PRState) error {
	opt := &github.PullRequestListCommentsOptions{ListOptions: github.ListOptions{PerPage: perPage}}
	for {
		cs, resp, err := c.gh.PullRequests.ListComments(ctx, c.cfg.Owner, c.cfg.Repo, st.Number, opt)
		if err != nil {
			return wrap("list review comments", err)
		}
		for _, cm := range cs {
			if cm.GetUser().GetLogin() == c.cfg.Login {
				st.Comments = append(st.Comments, cm)
			}
		}
		if resp.NextPage == 0 {
			return nil
		}
		opt.Page = resp.NextPage
	}
}

func (c *Client) loadReviews(ctx context.Context, st *review.PRState) error {
	opt := &github.ListOptions{PerPage: perPage}
	for {
		rs, resp, err := c.gh.PullRequests.ListReviews(ctx, c.cfg.Owner, c.cfg.Repo, st.Number, opt)
		if err != nil {
			return wrap("list reviews", err)
		}
		for _, r := range rs {
			if r.GetUser().GetLogin() == c.cfg.Login {
				st.Reviews = append(st.Reviews, r)
			}
		}
		if resp.NextPage == 0 {
			return nil
		}
		opt.Page = resp.NextPage
	}
}
