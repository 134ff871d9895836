package fingerprint

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"testing"
)

// blobID is the id git gives a blob with content c.
func blobID(c string) string {
	h := sha1.Sum([]byte(fmt.Sprintf("blob %d\x00%s", len(c), c)))
	return hex.EncodeToString(h[:])
}

// memTree is a tree held in memory: entries, and the blobs they name.
type memTree struct {
	entries []Entry
	blobs   map[string][]byte
}

// newTree builds a tree from (path, mode, content) triples; for a gitlink
// the content is its commit id.
func newTree(t testing.TB, spec ...string) *memTree {
	t.Helper()
	m := &memTree{blobs: map[string][]byte{}}
	for i := 0; i+2 < len(spec); i += 3 {
		e := Entry{Path: spec[i], Mode: spec[i+1], Type: "blob"}
		if e.Mode == ModeGitlink {
			e.Type, e.OID = "commit", spec[i+2]
		} else {
			e.OID = blobID(spec[i+2])
			m.blobs[e.OID] = []byte(spec[i+2])
		}
		if err := checkEntry(e); err != nil {
			t.Fatal(err)
		}
		m.entries = append(m.entries, e)
	}
	sortEntries(m.entries)
	return m
}

func (m *memTree) read(oid string) ([]byte, error) {
	b, ok := m.blobs[oid]
	if !ok {
		return nil, fmt.Errorf("no blob %s", oid)
	}
	return b, nil
}

func (m *memTree) selectPaths(t testing.TB, patterns ...string) ([]string, error) {
	t.Helper()
	s, err := ParseScope(patterns)
	if err != nil {
		t.Fatal(err)
	}
	sel, err := Select(m.entries, s, m.read)
	var paths []string
	for _, e := range sel {
		paths = append(paths, e.Path)
	}
	return paths, err
}

func mustScope(t testing.TB, patterns ...string) Scope {
	t.Helper()
	s, err := ParseScope(patterns)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
