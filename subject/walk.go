package subject

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
)

// Walk lists a commit's tree from its tree objects, which a Repo reads for
// it (Repo.Walk): it asks for the trees breadth first, so that they can be
// read ahead, and lists their entries depth first, in path order, as they
// arrive: after each tree, every entry that no missing tree comes before.
// It decides what the scope's patterns select of each entry as it is
// listed (before the symlink closure), and does not ask for the trees a
// pruning leaves out: they are listed as empty, and the listing says so
// (listing.pruned).
//
// It notes where each entry lies, not the Entry itself: that needs
// pointers, which cost the garbage collector while the listing grows; the
// entries are made once, at the end, when asked for.
type Walk struct {
	l       listing
	rawLen  int
	scope   *Scope // nil: no scope to decide on
	prune   *pruning
	root    *treeNode // until it is parsed
	stack   []cursor
	sorted  bool
	last    []byte     // the path listed last (tree texts are never rewritten)
	pending []*subtree // asked for, in order
	next    []string   // what Add returns
	texts   textArena
}

// cursor is where the walk is in one tree.
type cursor struct {
	n    *treeNode
	text uint32
	i, j int      // next entry and next subtree
	dir  dirScope // the scope's decisions for the tree
}

func newWalk(rawLen int, scope *Scope, p *pruning) *Walk {
	root := &treeNode{}
	return &Walk{l: listing{hexLen: 2 * rawLen}, rawLen: rawLen, scope: scope, prune: p, sorted: true, root: root}
}

// Start names the commit's root tree, the first to read.
func (w *Walk) Start(tree string) {
	w.pending = []*subtree{{node: w.root, oid: tree}}
}

// Next returns the id of the tree object Add takes next, and how many
// trees are asked for and not yet added: 0 once every tree has arrived.
func (w *Walk) Next() (oid string, pending int) {
	if len(w.pending) == 0 {
		return "", 0
	}
	return w.pending[0].oid, len(w.pending)
}

// Add takes the object Next names, of git type typ, and returns the ids of
// the trees beneath it to read, in order, after those asked for already
// (valid until the next call). data is not kept.
func (w *Walk) Add(typ string, data []byte) ([]string, error) {
	if len(w.pending) == 0 {
		return nil, fmt.Errorf("tree: no tree was asked for")
	}
	s := w.pending[0]
	w.pending = w.pending[1:]
	if typ != "tree" {
		return nil, fmt.Errorf("tree %q (%s) is a %s", strings.TrimSuffix(s.node.prefix, "/"), s.oid, typ)
	}
	if err := parseTree(s.node, data, w.rawLen, &w.texts); err != nil {
		return nil, err
	}
	w.next = w.next[:0]
	for i := range s.node.subs {
		sub := &s.node.subs[i]
		if w.prune.skips(sub.node.prefix) {
			sub.node.parsed = true // listed as empty
			w.l.pruned = true
			continue
		}
		w.pending = append(w.pending, sub)
		w.next = append(w.next, sub.oid)
	}
	w.advance()
	return w.next, nil
}

func (w *Walk) push(n *treeNode) {
	c := cursor{n: n, text: uint32(len(w.l.texts))}
	if w.scope != nil {
		c.dir = w.scope.forDir(n.prefix)
	}
	w.stack = append(w.stack, c)
	w.l.texts = append(w.l.texts, n.text)
}

// advance lists what it can.
func (w *Walk) advance() {
	if w.root != nil && w.root.parsed {
		w.push(w.root)
		w.root = nil
	}
	for len(w.stack) > 0 {
		c := &w.stack[len(w.stack)-1]
		n := c.n
		switch {
		case c.j < len(n.subs) && n.subs[c.j].at == c.i:
			sub := n.subs[c.j].node
			if !sub.parsed {
				return
			}
			c.j++
			w.push(sub)
		case c.i < len(n.recs):
			w.emit(c)
		default:
			n.recs, n.subs = nil, nil // listed: only its text is kept
			w.stack = w.stack[:len(w.stack)-1]
		}
	}
}

func (w *Walk) emit(c *cursor) {
	r := c.n.recs[c.i]
	c.i++
	sp := c.n.span(r, w.l.hexLen)
	sp.text = c.text
	l := &w.l
	path := c.n.text[r.path : r.path+r.n]
	if w.sorted && l.spans.n > 0 && bytes.Compare(path, w.last) <= 0 {
		w.sorted = false
	}
	w.last = path
	if sp.kind == kindSymlink {
		l.links = append(l.links, l.spans.n)
	}
	l.spans.add(sp)
	if w.scope != nil {
		e := sp.entry(c.n.text, l.hexLen)
		l.picked = append(l.picked, c.dir.selects(e, e.Path[len(c.n.prefix):]))
	}
}

// done returns the listing once every tree has arrived. When the paths
// are not in order (git writes trees sorted, but a tree object made by
// other means may not be), it sorts them as `git ls-tree -r` output
// sorted by path would be, and refuses a path listed twice.
func (w *Walk) done() (*listing, error) {
	if len(w.stack) > 0 || w.root != nil || len(w.pending) > 0 {
		return nil, fmt.Errorf("tree: not every tree was read")
	}
	l := &w.l
	if w.sorted {
		return l, nil
	}
	path := l.path
	order := make([]int, l.spans.n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(path(a), path(b)) })
	var spans spanList
	var picked []bool
	var links []int
	for k, i := range order {
		if k > 0 && path(i) == path(order[k-1]) {
			return nil, fmt.Errorf("tree: path %q listed twice", path(i))
		}
		sp := l.spans.at(i)
		if sp.kind == kindSymlink {
			links = append(links, k)
		}
		spans.add(sp)
		if l.picked != nil {
			picked = append(picked, l.picked[i])
		}
	}
	l.spans, l.picked, l.links = spans, picked, links
	return l, nil
}

// pruning is which trees a walk need not read: those beneath which the
// scope selects nothing (Scope.prunes), unless a path to keep (a gate's
// configuration file, which is looked up in the listing) lies beneath.
type pruning struct {
	scope Scope
	keep  []string
}

// skips reports whether the walk leaves out the tree at prefix (its path
// and "/"). A nil pruning leaves out none.
func (p *pruning) skips(prefix string) bool {
	if p == nil {
		return false
	}
	for _, k := range p.keep {
		if strings.HasPrefix(k, prefix) {
			return false
		}
	}
	return p.scope.prunes(strings.Split(strings.TrimSuffix(prefix, "/"), "/"))
}
