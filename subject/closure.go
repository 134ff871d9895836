package subject

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// MaxSymlinkHops bounds the symlinks followed while resolving one link
// (the same bound as Linux's MAXSYMLINKS).
const MaxSymlinkHops = 40

// BlobReader returns the bytes of a blob by object id.
type BlobReader func(oid string) ([]byte, error)

// selectIn says which of the size entries at(0), at(1) ... (sorted by
// path) the scope selects, closed under symlinks: in[i] for at(i), nil for
// all of them, and n of them. For every selected symlink, the entries its
// target resolves to are selected too (a file, a gitlink, or every entry
// under a directory, following links in the path). A link that points
// outside the repository, to a path that is not in the tree, or around a
// loop is an error: the fingerprint fails closed. links are the indices of
// the symlinks among the entries, in order; the whole tree (a scope with
// no pattern) selects everything once its links are checked. picked is
// what the scope selects of each entry before the closure (s.Selects),
// decided already; selectIn adds to it. Reading the entries
// through at lets a listing lend them without making a slice of all of
// them.
func selectIn(size int, at func(int) Entry, links []int, s Scope, picked []bool, read BlobReader) (in []bool, n int, err error) {
	c := &closure{size: size, at: at, read: read, in: picked}
	if s.Whole() {
		// Everything is selected already: resolving the links only checks them.
		if len(links) > 0 {
			c.in = make([]bool, size)
			if err := c.follow(slices.Clone(links)); err != nil {
				return nil, 0, err
			}
		}
		return nil, size, nil
	}
	var queue []int
	for _, i := range links {
		if c.in[i] {
			queue = append(queue, i)
		}
	}
	if len(queue) > 0 {
		if err := c.follow(queue); err != nil {
			return nil, 0, err
		}
	}
	for _, ok := range c.in {
		if ok {
			n++
		}
	}
	return c.in, n, nil
}

type closure struct {
	size  int
	at    func(int) Entry // the entries, sorted by path
	read  BlobReader
	in    []bool // by index into all
	done  map[string]bool
	queue []int
}

func (c *closure) follow(queue []int) error {
	c.done = make(map[string]bool)
	c.queue = queue
	for len(c.queue) > 0 {
		e := c.at(c.queue[0])
		c.queue = c.queue[1:]
		if c.done[e.Path] {
			continue
		}
		c.done[e.Path] = true
		if err := c.resolve(e); err != nil {
			return err
		}
	}
	return nil
}

// add selects entry i, queueing it to be followed when it is a symlink.
func (c *closure) add(i int) {
	e := c.at(i)
	c.in[i] = true
	if e.Mode == ModeSymlink && !c.done[e.Path] {
		c.queue = append(c.queue, i)
	}
}

// resolve walks link's target one component at a time, as the kernel does.
func (c *closure) resolve(link Entry) error {
	cur := strings.Split(link.Path, "/")
	cur = cur[:len(cur)-1]
	rest, err := c.target(link)
	if err != nil {
		return err
	}
	for hops := 1; len(rest) > 0; {
		comp := rest[0]
		rest = rest[1:]
		switch comp {
		case "", ".":
			continue
		case "..":
			if len(cur) == 0 {
				return fmt.Errorf("symlink %s points outside the repository", link.Path)
			}
			cur = cur[:len(cur)-1]
			continue
		}
		cur = append(cur, comp)
		p := strings.Join(cur, "/")
		i, ok := c.lookup(p)
		if !ok {
			if !c.isDir(p) {
				return fmt.Errorf("symlink %s: %s is not in the tree", link.Path, p)
			}
			continue
		}
		e := c.at(i)
		c.in[i] = true // a link passed through is selected, not followed on its own
		switch e.Mode {
		case ModeGitlink:
			return nil // what lies beneath is the submodule's content
		case ModeSymlink:
			if hops++; hops > MaxSymlinkHops {
				return fmt.Errorf("symlink %s: more than %d links to follow (a loop?)", link.Path, MaxSymlinkHops)
			}
			more, err := c.target(e)
			if err != nil {
				return fmt.Errorf("symlink %s: %w", link.Path, err)
			}
			cur = cur[:len(cur)-1]
			rest = append(more, rest...)
		default:
			if hasComponent(rest) {
				return fmt.Errorf("symlink %s: %s is a file, not a directory", link.Path, p)
			}
			return nil
		}
	}
	c.addDir(strings.Join(cur, "/"))
	return nil
}

// target reads a symlink's target and splits it into components.
func (c *closure) target(link Entry) ([]string, error) {
	if c.read == nil {
		return nil, fmt.Errorf("symlink %s: no way to read its target", link.Path)
	}
	b, err := c.read(link.OID)
	if err != nil {
		return nil, fmt.Errorf("read symlink %s: %w", link.Path, err)
	}
	t := string(b)
	switch {
	case t == "":
		return nil, fmt.Errorf("symlink %s has an empty target", link.Path)
	case strings.HasPrefix(t, "/"):
		return nil, fmt.Errorf("symlink %s points outside the repository (absolute target %q)", link.Path, t)
	case strings.ContainsRune(t, 0):
		return nil, fmt.Errorf("symlink %s: target contains a NUL byte", link.Path)
	}
	return strings.Split(t, "/"), nil
}

func hasComponent(rest []string) bool {
	for _, r := range rest {
		if r != "" && r != "." {
			return true
		}
	}
	return false
}

// prefixStart returns the index of the first entry whose path starts with
// dir + "/" (all entries for the root, dir == "").
func (c *closure) prefixStart(prefix string) int {
	return sort.Search(c.size, func(i int) bool { return c.at(i).Path >= prefix })
}

// lookup finds the entry at path p (all is sorted by path).
func (c *closure) lookup(p string) (int, bool) {
	i := c.prefixStart(p)
	return i, i < c.size && c.at(i).Path == p
}

func (c *closure) isDir(p string) bool {
	prefix := p + "/"
	i := c.prefixStart(prefix)
	return i < c.size && strings.HasPrefix(c.at(i).Path, prefix)
}

// addDir selects every entry under dir ("" is the root).
func (c *closure) addDir(dir string) {
	prefix := ""
	if dir != "" {
		prefix = dir + "/"
	}
	for i := c.prefixStart(prefix); i < c.size && strings.HasPrefix(c.at(i).Path, prefix); i++ {
		c.add(i)
	}
}
