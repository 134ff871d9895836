package ghapi

import (
	"context"
	"fmt"

	"github.com/agcgate/agc-action/carry"
	"github.com/agcgate/agc-action/fingerprint"
	"github.com/agcgate/agc-action/review"
)

// CloneDiffs is the DiffSource of a clone, for the Action and for
// agc-sarif github: the diffs GitHub does not give (a file listed without
// its patch, a file past the 3,000 it lists), read with g as `git diff
// BASE...HEAD -- PATH`, BASE and HEAD the commits GitHub names, fetched
// from origin by id when the clone lacks them. Nil when g is.
func CloneDiffs(g *fingerprint.Git) DiffSource {
	if g == nil {
		return nil
	}
	return gitDiffs{g: g, have: carry.Reachable(g, "origin")}
}

type gitDiffs struct {
	g    *fingerprint.Git
	have func(ctx context.Context, sha string) error
}

func (d gitDiffs) FileDiffs(ctx context.Context, base, head string, paths []string) (map[string]SourcedDiff, error) {
	for _, sha := range []string{base, head} {
		if err := d.have(ctx, sha); err != nil {
			return nil, err
		}
	}
	pds, err := d.g.Diffs(ctx, base, head, paths)
	if err != nil {
		return nil, fmt.Errorf("%w (a shallow clone lacks the merge base: actions/checkout with fetch-depth: 0)", err)
	}
	out := make(map[string]SourcedDiff, len(pds))
	for path, pd := range pds {
		hunks, err := review.ParsePatch(pd.Patch)
		if err != nil {
			return nil, fmt.Errorf("git diff of %s: %w", path, err)
		}
		why := "git finds no changed lines"
		switch {
		case pd.Binary:
			why = "git finds it binary"
		case pd.TooLarge:
			why = fmt.Sprintf("its diff is longer than %d KiB: too large", fingerprint.MaxFileDiff>>10)
		}
		out[path] = SourcedDiff{Hunks: hunks, Status: pd.Status, Why: why}
	}
	return out, nil
}
