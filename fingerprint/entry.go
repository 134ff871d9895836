package fingerprint

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Git modes of the entries a recursive tree listing yields.
const (
	ModeFile    = "100644"
	ModeExec    = "100755"
	ModeSymlink = "120000"
	ModeGitlink = "160000"
)

// Entry is one entry of a commit's tree, as `git ls-tree -r` prints it.
type Entry struct {
	Path string // repo-relative, '/'-separated, as git stores it
	Mode string // six octal digits, e.g. 100644
	Type string // blob or commit (a gitlink)
	OID  string // lowercase hex object id
}

func (e Entry) String() string {
	return fmt.Sprintf("%s %s %s\t%s", e.Mode, e.Type, e.OID, e.Path)
}

// ParseLsTree parses the output of `git ls-tree -r -z --full-tree`:
// records "<mode> SP <type> SP <oid> TAB <path>" each ended by NUL. The
// entries are returned sorted by path, byte-wise.
func ParseLsTree(out []byte) ([]Entry, error) {
	return ReadLsTree(bytes.NewReader(out))
}

// ReadLsTree is ParseLsTree reading from r as the output arrives, so that
// parsing overlaps git's listing.
func ReadLsTree(r io.Reader) ([]Entry, error) {
	var blocks entryBlocks
	buf := make([]byte, 0, 256<<10)
	base := 0 // offset of buf[0] in the whole output
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)] // grow: one record is longer than the buffer
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if last := bytes.LastIndexByte(buf, 0); last >= 0 {
			if err := blocks.appendRecords(string(buf[:last+1]), base); err != nil {
				return nil, err
			}
			rest := copy(buf, buf[last+1:])
			base += last + 1
			buf = buf[:rest]
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("ls-tree output: %w", err)
		}
	}
	if len(buf) > 0 {
		return nil, fmt.Errorf("ls-tree output: byte %d: record not ended by NUL", base)
	}
	entries := blocks.join()
	sortEntries(entries)
	for i := 1; i < len(entries); i++ {
		if entries[i].Path == entries[i-1].Path {
			return nil, fmt.Errorf("ls-tree output: path %q listed twice", entries[i].Path)
		}
	}
	return entries, nil
}

// entryBlocks collects entries in fixed blocks, so that a listing of
// unknown length is copied once (by join), not at every growth.
type entryBlocks struct {
	full []([]Entry)
	cur  []Entry
	n    int
}

const entryBlock = 8192

// appendRecords parses NUL-ended records; text is one string so that every
// field is a substring of it (one allocation a chunk).
func (b *entryBlocks) appendRecords(text string, base int) error {
	for off := 0; off < len(text); {
		n := strings.IndexByte(text[off:], 0)
		e, err := parseRecord(text[off : off+n])
		if err != nil {
			return fmt.Errorf("ls-tree output: byte %d: %w", base+off, err)
		}
		if len(b.cur) == cap(b.cur) {
			if b.cur != nil {
				b.full = append(b.full, b.cur)
			}
			b.cur = make([]Entry, 0, entryBlock)
		}
		b.cur = append(b.cur, e)
		b.n++
		off += n + 1
	}
	return nil
}

func (b *entryBlocks) join() []Entry {
	out := make([]Entry, 0, b.n)
	for _, blk := range b.full {
		out = append(out, blk...)
	}
	return append(out, b.cur...)
}

// parseRecord parses "<mode> SP <type> SP <oid> TAB <path>".
func parseRecord(rec string) (Entry, error) {
	meta, path, ok := strings.Cut(rec, "\t")
	if !ok {
		return Entry{}, fmt.Errorf("record %q has no TAB before the path", rec)
	}
	mode, rest, ok1 := strings.Cut(meta, " ")
	typ, oid, ok2 := strings.Cut(rest, " ")
	if !ok1 || !ok2 || strings.IndexByte(oid, ' ') >= 0 {
		return Entry{}, fmt.Errorf("record %q: want mode, type and object id", rec)
	}
	e := Entry{Path: path, Mode: mode, Type: typ, OID: oid}
	if err := checkEntry(e); err != nil {
		return Entry{}, err
	}
	return e, nil
}

func checkEntry(e Entry) error {
	switch {
	case !validPath(e.Path):
		return fmt.Errorf("path %q is not a clean repo-relative path", e.Path)
	case !validType(e.Mode, e.Type):
		return fmt.Errorf("%s: mode %q with type %q is not a file, symlink or gitlink", e.Path, e.Mode, e.Type)
	case !validOID(e.OID):
		return fmt.Errorf("%s: object id %q is not 40 or 64 lowercase hex digits", e.Path, e.OID)
	}
	return nil
}

// validPath reports whether p is a clean relative path: no empty, "." or
// ".." component, no NUL.
func validPath(p string) bool {
	if p == "" || strings.IndexByte(p, 0) >= 0 {
		return false
	}
	for start := 0; start <= len(p); {
		end := strings.IndexByte(p[start:], '/')
		if end < 0 {
			end = len(p)
		} else {
			end += start
		}
		if c := p[start:end]; c == "" || c == "." || c == ".." {
			return false
		}
		start = end + 1
	}
	return true
}

func validType(mode, typ string) bool {
	switch mode {
	case ModeFile, ModeExec, ModeSymlink:
		return typ == "blob"
	case ModeGitlink:
		return typ == "commit"
	}
	return false
}

func validOID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isHex[s[i]] {
			return false
		}
	}
	return true
}

var isHex = func() (t [256]bool) {
	for _, c := range "0123456789abcdef" {
		t[c] = true
	}
	return t
}()

func sortEntries(es []Entry) {
	cmp := func(a, b Entry) int { return strings.Compare(a.Path, b.Path) }
	if !slices.IsSortedFunc(es, cmp) {
		slices.SortFunc(es, cmp)
	}
}
