package subject

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"sort"
	"strings"
)

// listing is a commit's tree as the walk lists it: where each entry's
// encoding (docs/fingerprint.md) lies in the text of its tree, in path
// order, so that the fingerprint hashes those bytes where they are; and
// which entries the scope's patterns picked, decided while git was still
// sending trees. The entries themselves are made only when asked for.
type listing struct {
	spans   spanList
	texts   [][]byte
	hexLen  int
	picked  []bool // by index into spans; nil when the scope is the whole tree
	links   []int  // the indices of the symlinks
	entries []Entry
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

// makeEntries makes the entries from the spans, once.
func (l *listing) makeEntries() {
	if l.entries != nil {
		return
	}
	l.entries = make([]Entry, l.spans.n)
	for i, sp := range l.spans.all {
		l.entries[i] = sp.entry(l.texts[sp.text], l.hexLen)
	}
}

// at returns entry i, without making the entries.
func (l *listing) at(i int) Entry {
	sp := l.spans.at(i)
	return sp.entry(l.texts[sp.text], l.hexLen)
}

// selectsLink reports whether the scope's patterns picked a symlink (any
// symlink, when the walk did not pick).
func (l *listing) selectsLink() bool {
	for _, i := range l.links {
		if l.picked == nil || l.picked[i] {
			return true
		}
	}
	return false
}

// path returns the path of entry i, without making the entry.
func (l *listing) path(i int) string {
	sp := l.spans.at(i)
	return bytesString(sp.path(l.texts[sp.text], l.hexLen))
}

// search returns the index of the first entry whose path is p or sorts
// after it.
func (l *listing) search(p string) int {
	return sort.Search(l.spans.n, func(i int) bool { return l.path(i) >= p })
}

// lookup finds the index of the entry at path p.
func (l *listing) lookup(p string) (int, bool) {
	i := l.search(p)
	return i, i < l.spans.n && l.path(i) == p
}

// isDir reports whether some entry lies beneath the directory p.
func (l *listing) isDir(p string) bool {
	i := l.search(p + "/")
	return i < l.spans.n && strings.HasPrefix(l.path(i), p+"/")
}

// sumEarly starts hashing, in a goroutine, when the selection is already
// known: the whole tree, or the entries the patterns picked when no
// symlink is among them (the closure adds nothing then). That overlaps the
// hash with making the entries and checking the links; should the check
// fail, the value is not used. It returns nil when the hash must wait.
func (l *listing) sumEarly(s Scope, g Gate) <-chan string {
	if !s.Whole() && l.picked == nil {
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

// sum is the tree fingerprint of the entries of l with in[i] set (all of
// them when in is nil), n of them, over s and g: "sha256:" and 64
// lowercase hex digits.
func (l *listing) sum(s Scope, g Gate, in []bool, n int) string {
	h := sha256.New()
	l.encode(h, s, g, in, n)
	return Prefix + hex.EncodeToString(h.Sum(nil))
}

// encode writes the bytes a tree fingerprint hashes (docs/fingerprint.md):
// every variable field a 4-byte big-endian length followed by its bytes,
// every list a 4-byte big-endian count followed by its items. It writes
// the entries' encoding where the walk left it, in runs of adjacent
// entries, instead of encoding them again.
func (l *listing) encode(w io.Writer, s Scope, g Gate, in []bool, n int) {
	e := &encoder{w: w, buf: make([]byte, 0, 4<<10)}
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
			w.Write(l.texts[run.text][run.start:run.end])
		}
		run, open = sp, true
	}
	if open {
		w.Write(l.texts[run.text][run.start:run.end])
	}
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
