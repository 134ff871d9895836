package fingerprint

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"unicode"
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

// diffBatch is how many paths one git diff is asked for.
const diffBatch = 200

// Diffs reads the diffs of paths from base's merge base with head to
// head, with the repository's own objects: `git diff --no-ext-diff
// --no-textconv --no-color --no-renames -U3 base...head -- PATH...`, in
// batches of diffBatch paths, which runs nothing the repository
// configures (no external diff, no textconv filter) and takes each path
// literally. A path the pull request does not change is absent from the
// map. Both revisions must be full object ids, and the clone must hold
// them and their merge base (a shallow clone may not: the error says so).
func (g *Git) Diffs(ctx context.Context, base, head string, paths []string) (map[string]PathDiff, error) {
	if !validOID(base) || !validOID(head) {
		return nil, fmt.Errorf("diff %q...%q: not full object ids", base, head)
	}
	out := map[string]PathDiff{}
	for len(paths) > 0 {
		n := min(len(paths), diffBatch)
		if err := g.diffs(ctx, base, head, paths[:n], out); err != nil {
			return nil, err
		}
		paths = paths[n:]
	}
	return out, nil
}

func (g *Git) diffs(ctx context.Context, base, head string, paths []string, into map[string]PathDiff) error {
	args := []string{"-c", "core.quotePath=false", "diff", "--no-ext-diff", "--no-textconv", "--no-color", "--no-renames", "-U3", base + "..." + head, "--"}
	for _, p := range paths {
		if !InTree(p) {
			return fmt.Errorf("diff of %q: not a path in the tree", p)
		}
		args = append(args, ":(literal)"+p)
	}
	c := g.cmd(ctx, args...)
	var stderr bytes.Buffer
	c.Stderr = &stderr
	out, err := c.Output()
	if err != nil {
		msg, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		return fmt.Errorf("git diff %s...%s: %w: %s", base, head, err, msg)
	}
	for _, section := range splitDiff(out) {
		path, d, ok := parsePathDiff(section)
		if !ok {
			return fmt.Errorf("git diff %s...%s: cannot read the header %q", base, head, firstLine(section))
		}
		into[path] = d
	}
	return nil
}

// InTree reports whether p can name a file of a git tree as git diff
// takes it: clean, relative, neither "." nor above the root, no trailing
// slash, no control character. A caller filters the paths a judged party
// names with it, since Diffs refuses the whole call for one that is not.
func InTree(p string) bool {
	return p != "." && fs.ValidPath(p) && !strings.ContainsFunc(p, unicode.IsControl)
}

// splitDiff cuts git's output into one section per file, each from its
// "diff --git " line.
func splitDiff(out []byte) [][]byte {
	var sections [][]byte
	for len(out) > 0 {
		i := bytes.Index(out[1:], []byte("\ndiff --git "))
		if i < 0 {
			return append(sections, out)
		}
		sections = append(sections, out[:i+2])
		out = out[i+2:]
	}
	return sections
}

func firstLine(b []byte) string {
	l, _, _ := bytes.Cut(b, []byte("\n"))
	return string(l)
}

// parsePathDiff reads the section of one file: its path from the
// "diff --git a/P b/P" line (the same path twice, as renames are off;
// quoted when it holds a quote, a backslash or a control character), its
// status, and its hunks.
func parsePathDiff(section []byte) (string, PathDiff, bool) {
	header, rest, _ := bytes.Cut(section, []byte("\n"))
	path, ok := diffPath(strings.TrimPrefix(string(header), "diff --git "))
	if !ok {
		return "", PathDiff{}, false
	}
	d := PathDiff{Status: "modified"}
	meta, hunks, found := bytes.Cut(rest, []byte("\n@@"))
	if bytes.HasPrefix(rest, []byte("@@")) {
		meta, hunks, found = nil, rest[2:], true
	}
	for _, l := range strings.Split(string(meta), "\n") {
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
	return path, d, true
}

// diffPath is P of "a/P b/P", or of `"a/P" "b/P"` in git's C quoting.
func diffPath(s string) (string, bool) {
	if strings.HasPrefix(s, `"`) {
		q, err := strconv.QuotedPrefix(s)
		if err != nil {
			return "", false
		}
		a, err := strconv.Unquote(q)
		p, ok := strings.CutPrefix(a, "a/")
		return p, err == nil && ok
	}
	n := (len(s) - len("a/ b/")) / 2
	if n <= 0 || len(s) != 2*n+len("a/ b/") || s[:2] != "a/" || s[2+n:2+n+3] != " b/" || s[2:2+n] != s[2+n+3:] {
		return "", false
	}
	return s[2 : 2+n], true
}
