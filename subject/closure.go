package subject

import (
	"fmt"
	"slices"
	"strings"
)

// MaxSymlinkHops bounds the symlinks followed while resolving one link
// (the same bound as Linux's MAXSYMLINKS).
const MaxSymlinkHops = 40

// closeOver says which entries of l the scope selects, closed under
// symlinks: in[i] for entry i, nil for all of them, and n of them. For
// every selected symlink, the entries its target resolves to are selected
// too (a file, a gitlink, or every entry under a directory, following
// links in the path). A link that points outside the repository, to a
// path that is not in the tree, or around a loop is an error: the
// fingerprint fails closed. The whole tree (a scope with no pattern)
// selects everything once its links are checked. It starts from what the
// scope picked of each entry while the walk listed it (l.picked), and
// leaves l.picked as it was. read returns a symlink's target by object id.
func (l *listing) closeOver(s Scope, read func(oid string) ([]byte, error)) (in []bool, n int, err error) {
	c := &closure{l: l, read: read}
	if s.Whole() {
		// Everything is selected already: resolving the links only checks them.
		if len(l.links) > 0 {
			c.in = make([]bool, l.spans.n)
			if err := c.follow(slices.Clone(l.links)); err != nil {
				return nil, 0, err
			}
		}
		return nil, l.spans.n, nil
	}
	c.in = slices.Clone(l.picked)
	var queue []int
	for _, i := range l.links {
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
	l     *listing
	read  func(oid string) ([]byte, error)
	in    []bool // by index into l
	done  map[string]bool
	queue []int
}

func (c *closure) follow(queue []int) error {
	c.done = make(map[string]bool)
	c.queue = queue
	for len(c.queue) > 0 {
		e := c.l.at(c.queue[0])
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
	e := c.l.at(i)
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
		i, ok := c.l.lookup(p)
		if !ok {
			if !c.l.isDir(p) {
				return fmt.Errorf("symlink %s: %s is not in the tree", link.Path, p)
			}
			continue
		}
		e := c.l.at(i)
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

// addDir selects every entry under dir ("" is the root).
func (c *closure) addDir(dir string) {
	prefix := ""
	if dir != "" {
		prefix = dir + "/"
	}
	for i := c.l.search(prefix); i < c.l.spans.n && strings.HasPrefix(c.l.path(i), prefix); i++ {
		c.add(i)
	}
}
