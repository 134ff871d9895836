package deliver

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/carry"
	"github.com/agcgate/agc-action/fingerprint"
	"github.com/agcgate/agc-action/internal/logsafe"
	"github.com/agcgate/agc-action/review"
)

// MaxSourcedDiffs bounds the files whose diff one run reads from the
// clone: a judged party decides how many files its findings name, and
// only MaxInlinePerRun findings can be inline anyway.
const MaxSourcedDiffs = 1000

// fillDiffs reads from Options.Diffs the diffs GitHub did not give of the
// files the gates' findings are in: a file listed without its patch, and,
// when the list was cut short, a file not listed. Only files with findings
// are read, each once, in one batch: the rest of a 5,000-file pull request
// costs nothing. What cannot be read leaves its findings off the diff (the
// file's entry in the review, or the review body) and the log says why.
func (d *run) fillDiffs(ctx context.Context, st *review.PRState, base string, gates []agc.Doc) {
	log := d.opt.Log
	need := map[string]bool{}
	for _, g := range gates {
		for i := range g.Response.Findings {
			path, _ := agc.LocationFile(g.Response.Findings[i].Location)
			if path == "" {
				continue
			}
			fd, listed := st.Diffs[path]
			if listed && fd.NoPatch || !listed && st.Truncated {
				need[path] = true
			}
		}
	}
	paths := slices.DeleteFunc(slices.Sorted(maps.Keys(need)), func(path string) bool {
		if fingerprint.InTree(path) {
			return false
		}
		// the judged party names it: one such path must not cost every
		// other file its diff (git refuses the whole call)
		fmt.Fprintf(log, "%s: not a path in the tree (a clean relative path of a file): its diff is not read from the clone, and its findings are not inline\n", logsafe.Name(path))
		return true
	})
	if len(paths) > MaxSourcedDiffs {
		fmt.Fprintf(log, "findings name %d files GitHub gave no diff of; the diffs of the first %d are read from the clone, the others' findings are not inline\n", len(paths), MaxSourcedDiffs)
		paths = paths[:MaxSourcedDiffs]
	}
	if len(paths) == 0 {
		return
	}
	gave := func(listed bool) string {
		if listed {
			return "GitHub listed it without a patch (too large or binary)"
		}
		return "GitHub lists at most 3,000 files and did not list it"
	}
	if d.opt.Diffs == nil {
		for _, path := range paths {
			_, listed := st.Diffs[path]
			fmt.Fprintf(log, "%s: %s, and there is no clone to read its diff from: its findings are not inline\n", logsafe.Name(path), gave(listed))
		}
		return
	}
	diffs, err := d.opt.Diffs.Diffs(ctx, base, st.HeadSHA, paths)
	var hunks map[string][]review.Hunk
	if err == nil {
		hunks, err = parsePatches(diffs)
	}
	if err != nil {
		fmt.Fprintf(log, "the diffs of %d files GitHub did not give (%s, ...) cannot be read from the clone (%s): their findings are not inline\n", len(paths), logsafe.Name(paths[0]), logsafe.Line(err.Error()))
		return
	}
	for _, path := range paths {
		fd, listed := st.Diffs[path]
		pd, changed := diffs[path]
		if !changed && !listed {
			continue // not changed by the pull request: not in it
		}
		if len(hunks[path]) == 0 {
			fmt.Fprintf(log, "%s: %s, and the clone's diff has no hunks (%s): its findings go to the file's entry in the review\n", logsafe.Name(path), gave(listed), logsafe.Line(noHunksWhy(pd)))
		}
		status := pd.Status
		if listed {
			status = fd.Status
		}
		nd := review.NewFileDiff(path, status, hunks[path])
		nd.NoPatch = len(hunks[path]) == 0
		st.Diffs[path] = nd
	}
}

// parsePatches parses each file's patch into its hunks.
func parsePatches(diffs map[string]fingerprint.PathDiff) (map[string][]review.Hunk, error) {
	out := make(map[string][]review.Hunk, len(diffs))
	for path, pd := range diffs {
		hunks, err := review.ParsePatch(pd.Patch)
		if err != nil {
			return nil, fmt.Errorf("git diff of %s: %w", path, err)
		}
		out[path] = hunks
	}
	return out, nil
}

// noHunksWhy says why git gave a file no hunks.
func noHunksWhy(pd fingerprint.PathDiff) string {
	switch {
	case pd.Binary:
		return "git finds it binary"
	case pd.TooLarge:
		return fmt.Sprintf("its diff is longer than %d KiB: too large", fingerprint.MaxFileDiff>>10)
	}
	return "git finds no changed lines"
}

// Clone returns the Diffs of a clone, for the Action and for agc-sarif
// github: `git diff BASE...HEAD -- PATH` with g, BASE and HEAD the commits
// GitHub names, fetched from origin by id when the clone lacks them. Nil
// when g is.
func Clone(g *fingerprint.Git) Diffs {
	if g == nil {
		return nil
	}
	return clone{g: g, have: carry.Reachable(g, "origin")}
}

type clone struct {
	g    *fingerprint.Git
	have func(ctx context.Context, sha string) error
}

func (c clone) Diffs(ctx context.Context, base, head string, paths []string) (map[string]fingerprint.PathDiff, error) {
	for _, sha := range []string{base, head} {
		if err := c.have(ctx, sha); err != nil {
			return nil, err
		}
	}
	pds, err := c.g.Diffs(ctx, base, head, paths)
	if err != nil {
		return nil, fmt.Errorf("%w (a shallow clone lacks the merge base: actions/checkout with fetch-depth: 0)", err)
	}
	return pds, nil
}
