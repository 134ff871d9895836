package fingerprint

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"
	"unicode"

	"github.com/agcgate/agc-action/subject"
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
	// TooLarge is set when the file's diff is longer than MaxFileDiff
	// bytes: it is not kept, and the file has no hunks.
	TooLarge bool
}

// MaxFileDiff bounds the bytes of one file's diff that Diffs keeps.
const MaxFileDiff = 1 << 20

// diffBatch is how many paths one git diff is asked for.
const diffBatch = 200

// Diffs reads the diffs of paths from base's merge base with head to
// head, with the repository's own objects: `git diff --no-ext-diff
// --no-textconv --no-color --no-renames -U3 base...head -- PATH...`, in
// batches of diffBatch paths, which runs nothing the repository
// configures (no external diff, no textconv filter) and takes each path
// literally. Only a path that is a file at head (or, absent there, at the
// merge base) is given to git: a directory would diff everything under
// it. A path the pull request does not change, and one that is no file,
// is absent from the map; a file's diff longer than MaxFileDiff is not
// kept (TooLarge). Every path must be InTree. Both revisions must be full object ids, and the clone must hold
// them and their merge base (a shallow clone may not: the error says so).
func (g *Git) Diffs(ctx context.Context, base, head string, paths []string) (map[string]PathDiff, error) {
	if !subject.ValidOID(base) || !subject.ValidOID(head) {
		return nil, fmt.Errorf("diff %q...%q: not full object ids", base, head)
	}
	for _, p := range paths {
		if !InTree(p) {
			return nil, fmt.Errorf("diff of %q: not a path in the tree", p)
		}
	}
	out, err := g.cmd(ctx, "merge-base", base, head).Output()
	mb := strings.TrimSpace(string(out))
	if err != nil || !subject.ValidOID(mb) {
		return nil, fmt.Errorf("git diff %s...%s: no merge base in the clone (git merge-base: %v)", base, head, err)
	}
	diffs := map[string]PathDiff{}
	for len(paths) > 0 {
		n := min(len(paths), diffBatch)
		if err := g.diffs(ctx, mb, base, head, paths[:n], diffs); err != nil {
			return nil, err
		}
		paths = paths[n:]
	}
	return diffs, nil
}

func (g *Git) diffs(ctx context.Context, mergeBase, base, head string, paths []string, into map[string]PathDiff) error {
	paths, err := g.files(ctx, mergeBase, head, paths)
	if err != nil || len(paths) == 0 {
		return err
	}
	args := []string{"-c", "core.quotePath=false", "diff", "--no-ext-diff", "--no-textconv", "--no-color", "--no-renames", "-U3", base + "..." + head, "--"}
	asked := make(map[string]bool, len(paths))
	for _, p := range paths {
		args = append(args, ":(literal)"+p)
		asked[p] = true
	}
	c := g.cmd(ctx, args...)
	var stderr bytes.Buffer
	c.Stderr = &stderr
	out, err := c.StdoutPipe()
	if err != nil {
		return err
	}
	if err := c.Start(); err != nil {
		return fmt.Errorf("git diff %s...%s: %w", base, head, err)
	}
	rerr := readSections(out, func(section []byte, tooLarge bool) error {
		path, d, ok := parsePathDiff(section)
		if !ok {
			return fmt.Errorf("git diff %s...%s: cannot read the header %q", base, head, firstLine(section))
		}
		if tooLarge {
			d.Patch, d.TooLarge = "", true
		}
		if asked[path] { // a section of a path not asked for is not kept
			into[path] = d
		}
		return nil
	})
	_, _ = io.Copy(io.Discard, out) // what is left after a section git wrote wrong
	if err := c.Wait(); err != nil {
		return fmt.Errorf("git diff %s...%s: %w: %s", base, head, err, firstLine(bytes.TrimSpace(stderr.Bytes())))
	}
	return rerr
}

// InTree reports whether p can name a file of a git tree as git diff
// takes it: clean, relative, neither "." nor above the root, no trailing
// slash, no control character. A caller filters the paths a judged party
// names with it, since Diffs refuses the whole call for one that is not.
func InTree(p string) bool {
	return p != "." && fs.ValidPath(p) && !strings.ContainsFunc(p, unicode.IsControl)
}

// files returns those of paths that are files (blobs: a file or a
// symlink) at head, or, absent at head, at the merge base (a file the pull
// request removes), asked of one `git cat-file --batch-check`: a
// directory given to git diff would diff everything under it.
func (g *Git) files(ctx context.Context, mergeBase, head string, paths []string) ([]string, error) {
	var in strings.Builder
	for _, p := range paths {
		in.WriteString(head + ":" + p + "\n" + mergeBase + ":" + p + "\n")
	}
	c := g.cmd(ctx, "cat-file", "--batch-check")
	c.Stdin = strings.NewReader(in.String())
	var stderr bytes.Buffer
	c.Stderr = &stderr
	out, err := c.Output()
	if err != nil {
		return nil, fmt.Errorf("git cat-file --batch-check at %s: %w: %s", head, err, firstLine(bytes.TrimSpace(stderr.Bytes())))
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != 2*len(paths) {
		return nil, fmt.Errorf("git cat-file --batch-check at %s: %d answers to %d names", head, len(lines), 2*len(paths))
	}
	// each answer is "OID TYPE SIZE" when found; "NAME missing" (NAME may
	// hold spaces) when not
	typ := func(l string) string {
		if f := strings.Fields(l); len(f) == 3 && subject.ValidOID(f[0]) {
			return f[1]
		}
		return ""
	}
	var files []string
	for i, p := range paths {
		if h, b := typ(lines[2*i]), typ(lines[2*i+1]); h == "blob" || h == "" && b == "blob" {
			files = append(files, p)
		}
	}
	return files, nil
}

// readSections reads git diff's output one file's section at a time, each
// from its "diff --git " line, and gives each to do: whole, or, past
// MaxFileDiff bytes, cut there with tooLarge set (the rest is read and
// dropped), so no more than one file's bounded section is held. Inside a
// section every line starts with a space, "+", "-", "\\", "@@" or a
// header word, so a line starting "diff --git " starts the next one.
func readSections(r io.Reader, do func(section []byte, tooLarge bool) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var cur []byte
	over, atStart := false, true
	flush := func() error {
		if len(cur) == 0 {
			return nil
		}
		err := do(cur, over)
		cur, over = cur[:0], false
		return err
	}
	for {
		chunk, err := br.ReadSlice('\n')
		if len(chunk) > 0 {
			if atStart && bytes.HasPrefix(chunk, []byte("diff --git ")) {
				if ferr := flush(); ferr != nil {
					return ferr
				}
			}
			atStart = chunk[len(chunk)-1] == '\n'
			if !over && len(cur)+len(chunk) > MaxFileDiff {
				over = true
			}
			if !over {
				cur = append(cur, chunk...)
			}
		}
		switch {
		case err == io.EOF:
			return flush()
		case err != nil && !errors.Is(err, bufio.ErrBufferFull):
			return err
		}
	}
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
