package subject

import (
	"fmt"
	"io/fs"
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

// The object types of the entries a recursive tree listing yields.
const (
	typeBlob   = "blob"
	typeCommit = "commit"
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

// validPath reports whether p is a clean relative path: no empty, "." or
// ".." component, no NUL.
func validPath(p string) bool {
	return p != "." && fs.ValidPath(p) && strings.IndexByte(p, 0) < 0
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
