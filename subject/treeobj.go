package subject

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"
	"unsafe"
)

// treeNode is one tree object of a commit, read while walking it: its
// entries that are not trees, and its subtrees with where they go among
// those entries. Flattening the nodes depth-first gives the entries in the
// order `git ls-tree -r` lists them.
//
// The entries are kept compact, without pointers, until they are listed:
// text holds, for each entry in turn, exactly the bytes the encoding
// writes for it (its four length-prefixed fields, docs/fingerprint.md),
// and recs say where each one's path starts. The paths and object ids of
// the listed entries are substrings of text, which is never written to
// once parsed.
type treeNode struct {
	prefix string // the tree's path and "/", "" for the root
	parsed bool
	text   []byte
	recs   []rec
	subs   []subtree
}

// rec is one entry of a treeNode: its path is text[path:path+n], followed
// by the mode, type and object id fields.
type rec struct {
	path, n uint32
	kind    uint8 // index into kinds
}

// kinds are the modes and types of entries that are not trees, as `git
// ls-tree` prints them.
var kinds = [4][2]string{{ModeFile, typeBlob}, {ModeExec, typeBlob}, {ModeSymlink, typeBlob}, {ModeGitlink, typeCommit}}

// kindSymlink is the index of a symlink in kinds.
const kindSymlink = 2

// fieldHeads are, for each kind, the bytes the encoding writes between an
// entry's path and the length of its object id: the mode and type fields.
var fieldHeads = func() (h [4]string) {
	for k, mt := range kinds {
		var b []byte
		for _, f := range mt {
			b = binary.BigEndian.AppendUint32(b, uint32(len(f)))
			b = append(b, f...)
		}
		h[k] = string(b)
	}
	return h
}()

// subtree is a tree entry: its node comes before recs[at].
type subtree struct {
	at   int
	node *treeNode
	oid  string
}

// modeTree is the file type bits of a tree entry's mode.
const modeTree = 0o040000

// parseTree parses the raw bytes of a tree object: records "<octal mode>
// SP <name> NUL <raw object id>" with rawLen-byte object ids. It fills n
// with the entries, their paths under n.prefix, modes canonicalised as git
// does when it lists a tree (any regular file is 100644, or 100755 when its
// owner may execute it; anything not a file, symlink or tree is a gitlink),
// and object ids in lowercase hex. The text is taken from a (a fresh one
// when nil).
//
// It reads each record once, checking its shape as it goes: the first
// malformed record ends it with an error, and what it wrote of the text is
// then not used.
func parseTree(n *treeNode, data []byte, rawLen int, a *textArena) error {
	if a == nil {
		a = &textArena{}
	}
	text := a.free
	w := 0
	n.recs = make([]rec, 0, len(data)/(rawLen+10)+1) // about one per record of a usual tree
	for off := 0; off < len(data); {
		r := data[off:]
		sp := bytes.IndexByte(r, ' ')
		mode := -1
		if sp > 0 {
			mode = parseMode(r[:sp])
		}
		if mode < 0 {
			return fmt.Errorf("tree object: byte %d: malformed mode", off)
		}
		nul := bytes.IndexByte(r[sp+1:], 0)
		switch {
		case nul < 0 || len(r) < sp+1+nul+1+rawLen:
			return fmt.Errorf("tree object: byte %d: truncated entry", off)
		case nul == 0:
			return fmt.Errorf("tree object: byte %d: empty name", off)
		}
		name := r[sp+1 : sp+1+nul]
		raw := r[sp+1+nul+1:][:rawLen]
		off += sp + 1 + nul + 1 + rawLen
		if !validName(name) {
			return fmt.Errorf("tree %q: entry %q is not a clean path component", strings.TrimSuffix(n.prefix, "/"), name)
		}
		if mode&0o170000 == modeTree {
			n.subs = append(n.subs, subtree{at: len(n.recs),
				node: &treeNode{prefix: n.prefix + string(name) + "/"}, oid: hex.EncodeToString(raw)})
			continue
		}
		k := canonMode(mode)
		plen := len(n.prefix) + len(name)
		if need := 4 + plen + len(fieldHeads[k]) + 4 + 2*rawLen; len(text)-w < need {
			text = a.grow(text[:w], need)
		}
		binary.BigEndian.PutUint32(text[w:], uint32(plen))
		n.recs = append(n.recs, rec{path: uint32(w + 4), n: uint32(plen), kind: k})
		w += 4
		w += copy(text[w:], n.prefix)
		w += copy(text[w:], name)
		w += copy(text[w:], fieldHeads[k])
		binary.BigEndian.PutUint32(text[w:], uint32(2*rawLen))
		w += 4
		w += hex.Encode(text[w:], raw)
	}
	n.text, n.parsed = text[:w:w], true
	a.free = text[w:]
	return nil
}

// textArena hands out the texts of a walk's trees from chunks of
// arenaChunk bytes: a tree's text is written at the free end of the
// current chunk, and keeps the bytes it wrote. One allocation then serves
// a few dozen trees, and no text is sized by a first pass over its tree.
type textArena struct {
	free []byte
}

// arenaChunk is the size of a textArena's chunks.
const arenaChunk = 256 << 10

// grow returns a fresh chunk holding the w bytes written so far, with room
// for at least need more; a tree too large for one chunk gets a chunk of
// its own size.
func (a *textArena) grow(written []byte, need int) []byte {
	c := make([]byte, max(arenaChunk, 2*(len(written)+need)))
	copy(c, written)
	return c
}

// validName reports whether name, an entry of a tree object (which ends
// at a NUL, so holds none), is a path validPath accepts: without a "/",
// any name but "." and "..".
func validName(name []byte) bool {
	if bytes.IndexByte(name, '/') >= 0 {
		return validPath(string(name))
	}
	return !(len(name) == 1 && name[0] == '.' || len(name) == 2 && name[0] == '.' && name[1] == '.')
}

// parseMode parses an octal mode as git does (in an unsigned 32-bit
// number), or returns -1.
func parseMode(b []byte) int {
	if len(b) == 0 {
		return -1
	}
	var m uint32
	for _, c := range b {
		if c < '0' || c > '7' {
			return -1
		}
		m = m<<3 | uint32(c-'0')
	}
	return int(m)
}

// canonMode is git's canon_mode: which of kinds `git ls-tree` prints for
// an entry that is not a tree.
func canonMode(mode int) uint8 {
	switch mode & 0o170000 {
	case 0o100000:
		if mode&0o100 != 0 {
			return 1
		}
		return 0
	case 0o120000:
		return kindSymlink
	}
	return 3
}

// span returns where the encoding of r lies in n.text.
func (n *treeNode) span(r rec, hexLen int) span {
	end := int(r.path+r.n) + len(fieldHeads[r.kind]) + 4 + hexLen
	return span{start: r.path - 4, end: uint32(end), kind: r.kind}
}

// path returns the path of the entry whose encoding is
// text[sp.start:sp.end].
func (sp span) path(text []byte, hexLen int) []byte {
	return text[sp.start+4 : int(sp.end)-hexLen-4-len(fieldHeads[sp.kind])]
}

// entry returns the Entry whose encoding is text[sp.start:sp.end].
func (sp span) entry(text []byte, hexLen int) Entry {
	s := bytesString(text[:sp.end])
	k := kinds[sp.kind]
	pend := int(sp.end) - hexLen - 4 - len(fieldHeads[sp.kind])
	return Entry{Path: s[sp.start+4 : pend], Mode: k[0], Type: k[1], OID: s[len(s)-hexLen:]}
}

// bytesString returns the bytes of b as a string without copying them.
// Only for bytes that are never written to again.
func bytesString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}
