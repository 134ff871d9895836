package fingerprint

import (
	"bytes"
	"context"
	"fmt"
	"strings"
)

// PathDiff is one file's change between a pull request's base and head,
// as `git diff base...head -- path` writes it: the diff GitHub shows, from
// the merge base to the head.
type PathDiff struct {
	// Status is added, removed or modified; "" when the file is the same
	// on both sides (the pull request does not change it).
	Status string
	// Patch is the hunks alone, as GitHub's `patch` field holds them: from
	// the first "@@" line, the file headers left out.
	Patch string
	// Binary is set when git found the file binary: it has no hunks.
	Binary bool
}

// Diff reads path's diff from base's merge base with head to head, with
// the repository's own objects: `git diff --no-ext-diff --no-textconv
// --no-color --no-renames -U3 base...head -- path`, which runs nothing
// the repository configures (no external diff, no textconv filter). Both
// revisions must be full object ids, and the clone must hold them and
// their merge base (a shallow clone may not: the error says so).
func (g *Git) Diff(ctx context.Context, base, head, path string) (PathDiff, error) {
	switch {
	case !validOID(base) || !validOID(head):
		return PathDiff{}, fmt.Errorf("diff %q...%q: not full object ids", base, head)
	case path == "" || strings.ContainsAny(path, "\x00\n") || strings.HasPrefix(path, "/"):
		return PathDiff{}, fmt.Errorf("diff of %q: not a path in the tree", path)
	}
	c := g.cmd(ctx, "-c", "core.quotePath=false", "diff", "--no-ext-diff", "--no-textconv", "--no-color", "--no-renames", "-U3",
		base+"..."+head, "--", ":(literal)"+path)
	var stderr bytes.Buffer
	c.Stderr = &stderr
	out, err := c.Output()
	if err != nil {
		msg, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		return PathDiff{}, fmt.Errorf("git diff %s...%s -- %s: %w: %s", base, head, path, err, msg)
	}
	return parsePathDiff(out), nil
}

// parsePathDiff reads git's diff of one file.
func parsePathDiff(out []byte) PathDiff {
	if len(out) == 0 {
		return PathDiff{}
	}
	d := PathDiff{Status: "modified"}
	head, hunks, found := bytes.Cut(out, []byte("\n@@"))
	for _, l := range strings.Split(string(head), "\n") {
		switch {
		case strings.HasPrefix(l, "new file mode"):
			d.Status = "added"
		case strings.HasPrefix(l, "deleted file mode"):
			d.Status = "removed"
		case strings.HasPrefix(l, "Binary files ") && strings.HasSuffix(l, " differ"):
			d.Binary = true
		}
	}
	if found {
		d.Patch = "@@" + string(hunks)
	}
	return d
}
