package fingerprint

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/agcgate/agc-action/internal/logsafe"
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

// String is the entry as `git ls-tree` prints it, the path quoted when it
// is not plain (logsafe.Name), as git quotes it: a path is the judged
// party's, and git allows line breaks in it.
func (e Entry) String() string {
	return fmt.Sprintf("%s %s %s\t%s", e.Mode, e.Type, e.OID, logsafe.Name(e.Path))
}

// ParseLsTree parses the output of `git ls-tree -r -z --full-tree`:
// records "<mode> SP <type> SP <oid> TAB <path>" each ended by NUL. The
// entries are returned sorted by path, byte-wise.
func ParseLsTree(out []byte) ([]Entry, error) {
	return parseLsTree(string(out))
}

// ReadLsTree is ParseLsTree reading the listing from r. It reads the whole
// listing first: counting its records then gives the exact size of the
// slice, and every field is a substring of the one string read, so parsing
// allocates the same few times whatever the size of the tree.
func ReadLsTree(r io.Reader) ([]Entry, error) {
	var text strings.Builder // String() does not copy
	text.Grow(4 << 20)
	chunk := make([]byte, 256<<10)
	for {
		n, err := r.Read(chunk)
		text.Write(chunk[:n])
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("ls-tree output: %w", err)
		}
	}
	return parseLsTree(text.String())
}

func parseLsTree(text string) ([]Entry, error) {
	entries := make([]Entry, 0, strings.Count(text, "\x00"))
	for off := 0; off < len(text); {
		n := strings.IndexByte(text[off:], 0)
		if n < 0 {
			return nil, fmt.Errorf("ls-tree output: byte %d: record not ended by NUL", off)
		}
		e, err := parseRecord(text[off : off+n])
		if err != nil {
			return nil, fmt.Errorf("ls-tree output: byte %d: %w", off, err)
		}
		entries = append(entries, e)
		off += n + 1
	}
	if i := firstUnsorted(entries); i > 0 {
		sortEntries(entries)
		for i := 1; i < len(entries); i++ {
			if entries[i].Path == entries[i-1].Path {
				return nil, fmt.Errorf("ls-tree output: path %q listed twice", entries[i].Path)
			}
		}
	}
	return entries, nil
}

// firstUnsorted returns the first index whose path is not strictly greater
// than the one before (0 when the paths strictly increase, as git lists them).
func firstUnsorted(es []Entry) int {
	for i := 1; i < len(es); i++ {
		if es[i].Path <= es[i-1].Path {
			return i
		}
	}
	return 0
}

// parseRecord parses "<mode> SP <type> SP <oid> TAB <path>". The mode and
// type of a valid entry are the package's constants, not substrings of the
// listing.
func parseRecord(rec string) (Entry, error) {
	// The common shapes first: a 6-digit mode, "blob" or "commit", a
	// 40- or 64-digit object id.
	if len(rec) > 7 && rec[6] == ' ' {
		mode, typ, rest := intern(rec[:6]), "", rec[7:]
		switch {
		case strings.HasPrefix(rest, "blob "):
			typ, rest = typeBlob, rest[5:]
		case strings.HasPrefix(rest, "commit "):
			typ, rest = typeCommit, rest[7:]
		}
		for _, n := range [2]int{40, 64} {
			if typ != "" && mode != "" && len(rest) > n && rest[n] == '\t' {
				e := Entry{Path: rest[n+1:], Mode: mode, Type: typ, OID: rest[:n]}
				if checkEntry(e) == nil {
					return e, nil
				}
			}
		}
	}
	return parseRecordSlow(rec)
}

const (
	typeBlob   = "blob"
	typeCommit = "commit"
)

// intern returns the constant equal to mode, or "".
func intern(mode string) string {
	switch mode {
	case ModeFile:
		return ModeFile
	case ModeExec:
		return ModeExec
	case ModeSymlink:
		return ModeSymlink
	case ModeGitlink:
		return ModeGitlink
	}
	return ""
}

// parseRecordSlow parses any record, and says what is wrong with a bad one.
func parseRecordSlow(rec string) (Entry, error) {
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
	case !ValidOID(e.OID):
		return fmt.Errorf("%s: object id %q is not 40 or 64 lowercase hex digits", e.Path, e.OID)
	}
	return nil
}

// validPath reports whether p is a clean relative path: no empty, "." or
// ".." component, no NUL. One pass over the bytes.
func validPath(p string) bool {
	start := 0 // where the current component starts
	for i := 0; i <= len(p); i++ {
		if i < len(p) {
			switch p[i] {
			case 0:
				return false
			case '/':
			default:
				continue
			}
		}
		switch c := p[start:i]; {
		case len(c) == 0, c == ".", c == "..":
			return false
		}
		start = i + 1
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

// ValidOID reports whether s is a full object id as git writes it: 40
// (SHA-1) or 64 (SHA-256) lowercase hex digits.
func ValidOID(s string) bool {
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
