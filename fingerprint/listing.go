package fingerprint

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// listing is a commit's tree as the walk lists it: its entries in path
// order and, for each, where its encoding (docs/fingerprint.md) lies in the
// text of its tree, so that the fingerprint hashes those bytes where they
// are; and which entries the scope's patterns picked, decided while git
// was still sending trees.
type listing struct {
	entries []Entry
	spans   spanList // by index into entries, when walked is set
	walked  bool     // spans say where the entries are (they needed no sorting)
	texts   [][]byte
	hexLen  int
	picked  []bool // by index into entries; nil when not picked during the walk
	links   []int  // the indices of the symlinks, when walked is set
	// pruned is set when the walk left out trees beneath which the scope
	// selects nothing: the listing holds every selected entry (before the
	// closure), but not every entry.
	pruned bool
}

// spanChunk is how many spans one chunk of a spanList holds.
const spanChunk = 1 << 12

// spanList is a list of spans kept in chunks of spanChunk: growing it
// never copies what it holds (growing one slice to 100,000 spans copied
// and cleared several times their 1.6 MB, in fresh pages each time).
type spanList struct {
	chunks [][]span
	n      int
}

func (s *spanList) add(sp span) {
	if s.n%spanChunk == 0 {
		s.chunks = append(s.chunks, make([]span, 0, spanChunk))
	}
	c := &s.chunks[len(s.chunks)-1]
	*c = append(*c, sp)
	s.n++
}

func (s *spanList) at(i int) span { return s.chunks[i/spanChunk][i%spanChunk] }

// all yields the spans in order, with their indices.
func (s *spanList) all(yield func(int, span) bool) {
	i := 0
	for _, c := range s.chunks {
		for _, sp := range c {
			if !yield(i, sp) {
				return
			}
			i++
		}
	}
}

// span is where an entry's encoding lies: texts[text][start:end], the
// path starting 4 bytes in.
type span struct {
	text, start, end uint32
	kind             uint8
}

// lister lists trees depth first, in path order, from tree nodes that
// arrive breadth first: after each one arrives it lists every entry that
// no missing tree comes before. It notes where each entry lies, not the
// Entry itself: that needs pointers, which cost the garbage collector
// while the listing grows; the entries are made once, at the end.
type lister struct {
	l      listing
	hexLen int
	scope  *Scope    // nil: no scope to decide on
	root   *treeNode // until it is parsed
	stack  []cursor
	sorted bool
	last   []byte // the path listed last (tree texts are never rewritten)
}

// cursor is where the lister is in one tree.
type cursor struct {
	n    *treeNode
	text uint32
	i, j int      // next entry and next subtree
	dir  dirScope // the scope's decisions for the tree
}

func newLister(root *treeNode, hexLen int, scope *Scope) *lister {
	return &lister{hexLen: hexLen, scope: scope, sorted: true, root: root}
}

func (m *lister) push(n *treeNode) {
	c := cursor{n: n, text: uint32(len(m.l.texts))}
	if m.scope != nil {
		c.dir = m.scope.forDir(n.prefix)
	}
	m.stack = append(m.stack, c)
	m.l.texts = append(m.l.texts, n.text)
}

// advance lists what it can.
func (m *lister) advance() {
	if m.root != nil && m.root.parsed {
		m.push(m.root)
		m.root = nil
	}
	for len(m.stack) > 0 {
		c := &m.stack[len(m.stack)-1]
		n := c.n
		switch {
		case c.j < len(n.subs) && n.subs[c.j].at == c.i:
			sub := n.subs[c.j].node
			if !sub.parsed {
				return
			}
			c.j++
			m.push(sub)
		case c.i < len(n.recs):
			m.emit(c)
		default:
			n.recs, n.subs = nil, nil // listed: only its text is kept
			m.stack = m.stack[:len(m.stack)-1]
		}
	}
}

func (m *lister) emit(c *cursor) {
	r := c.n.recs[c.i]
	c.i++
	sp := c.n.span(r, m.hexLen)
	sp.text = c.text
	l := &m.l
	path := c.n.text[r.path : r.path+r.n]
	if m.sorted && l.spans.n > 0 && bytes.Compare(path, m.last) <= 0 {
		m.sorted = false
	}
	m.last = path
	if sp.kind == kindSymlink {
		l.links = append(l.links, l.spans.n)
	}
	l.spans.add(sp)
	if m.scope != nil {
		e := sp.entry(c.n.text, m.hexLen)
		l.picked = append(l.picked, c.dir.selects(e, e.Path[len(c.n.prefix):]))
	}
}

// done returns the listing once every tree has arrived. When the paths
// are not in order (git writes trees sorted, but a tree object made by
// other means may not be), it makes the entries, sorted and checked as
// ParseLsTree sorts and checks a listing, and drops what the walk noted.
func (m *lister) done() (*listing, error) {
	if len(m.stack) > 0 || m.root != nil {
		return nil, fmt.Errorf("tree: not every tree was read")
	}
	l := &m.l
	l.hexLen, l.walked = m.hexLen, true
	if m.sorted {
		return l, nil
	}
	l.makeEntries()
	l.spans, l.picked, l.links, l.walked = spanList{}, nil, nil, false
	sortEntries(l.entries)
	for i := 1; i < len(l.entries); i++ {
		if l.entries[i].Path == l.entries[i-1].Path {
			return nil, fmt.Errorf("tree: path %q listed twice", l.entries[i].Path)
		}
	}
	return l, nil
}

// makeEntries makes the entries from the spans, once.
func (l *listing) makeEntries() {
	if !l.walked || l.entries != nil {
		return
	}
	l.entries = make([]Entry, l.spans.n)
	for i, sp := range l.spans.all {
		l.entries[i] = sp.entry(l.texts[sp.text], l.hexLen)
	}
}

// size is how many entries the listing has.
func (l *listing) size() int {
	if l.walked {
		return l.spans.n
	}
	return len(l.entries)
}

// at returns entry i, without making the entries of a walked listing.
func (l *listing) at(i int) Entry {
	if !l.walked {
		return l.entries[i]
	}
	sp := l.spans.at(i)
	return sp.entry(l.texts[sp.text], l.hexLen)
}

// selectsLink reports whether the scope's patterns picked a symlink (any
// symlink, when the walk did not pick).
func (l *listing) selectsLink() bool {
	for _, i := range l.symlinks() {
		if l.picked == nil || l.picked[i] {
			return true
		}
	}
	return false
}

// symlinks returns the indices of the symlinks among the entries.
func (l *listing) symlinks() []int {
	if l.walked {
		return l.links
	}
	return symlinks(l.entries)
}

// lookup finds the entry at path.
func (l *listing) lookup(path string) (Entry, bool) {
	if !l.walked {
		i, ok := slices.BinarySearchFunc(l.entries, path, func(e Entry, p string) int { return strings.Compare(e.Path, p) })
		if !ok {
			return Entry{}, false
		}
		return l.entries[i], true
	}
	i, ok := sort.Find(l.spans.n, func(i int) int {
		sp := l.spans.at(i)
		return strings.Compare(path, bytesString(sp.path(l.texts[sp.text], l.hexLen)))
	})
	if !ok {
		return Entry{}, false
	}
	return l.at(i), true
}

// sumEarly starts hashing, in a goroutine, when the selection is already
// known: the whole tree, or the entries the patterns picked when no
// symlink is among them (the closure adds nothing then). That overlaps the
// hash with making the entries and checking the links; should the check
// fail, the value is not used. It returns nil when the hash must wait.
func (l *listing) sumEarly(s Scope, g Gate) <-chan string {
	if !l.walked || !s.Whole() && l.picked == nil {
		return nil
	}
	n := l.spans.n
	if !s.Whole() {
		if l.selectsLink() {
			return nil
		}
		n = 0
		for _, ok := range l.picked {
			if ok {
				n++
			}
		}
	}
	out := make(chan string, 1)
	go func() { out <- l.sum(s, g, l.picked, n) }()
	return out
}

// sum is Sum(s, g, selected) where the selected entries are those of l
// with in[i] set (all of them when in is nil) and n is how many. It hashes
// the entries' encoding where the walk left it, in runs of adjacent
// entries, instead of encoding them again.
func (l *listing) sum(s Scope, g Gate, in []bool, n int) string {
	if !l.walked {
		return Sum(s, g, pick(l.entries, in, n))
	}
	h := sha256.New()
	e := &encoder{w: h, buf: make([]byte, 0, 4<<10)}
	e.header(s, g)
	e.count(n)
	e.flush()
	run, open := span{}, false
	for i, sp := range l.spans.all {
		if in != nil && !in[i] {
			continue
		}
		if open && sp.text == run.text && sp.start == run.end {
			run.end = sp.end
			continue
		}
		if open {
			h.Write(l.texts[run.text][run.start:run.end])
		}
		run, open = sp, true
	}
	if open {
		h.Write(l.texts[run.text][run.start:run.end])
	}
	return Prefix + hex.EncodeToString(h.Sum(nil))
}

// pick returns the entries with in[i] set, n of them; all of them when in
// is nil.
func pick(all []Entry, in []bool, n int) []Entry {
	if in == nil {
		return all
	}
	out := make([]Entry, 0, n)
	for i, e := range all {
		if in[i] {
			out = append(out, e)
		}
	}
	return out
}
