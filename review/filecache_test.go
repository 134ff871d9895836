package review

import (
	"errors"
	"io/fs"
	"testing"
)

// countingFiles counts the reads of each path.
type countingFiles map[string]int

func (c countingFiles) ReadFile(p string) ([]byte, error) {
	c[p]++
	if p == "gone.go" {
		return nil, fs.ErrNotExist
	}
	return []byte("x"), nil
}

// TestCachedFilesReadOnce: a file many findings name is read once, its
// error too; a cache of a cache is the same cache.
func TestCachedFilesReadOnce(t *testing.T) {
	n := countingFiles{}
	c := CachedFiles(n)
	for range 3 {
		if _, err := c.ReadFile("a.go"); err != nil {
			t.Fatal(err)
		}
		if _, err := c.ReadFile("gone.go"); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("gone.go: %v", err)
		}
	}
	if n["a.go"] != 1 || n["gone.go"] != 1 {
		t.Errorf("reads: %v", n)
	}
	if CachedFiles(c) != c {
		t.Error("a cache of a cache is another cache")
	}
}
