package cmdenv

import (
	"fmt"
	"io/fs"
	"os"
)

// SourceFS opens dir as a source root. Reads through it cannot leave dir:
// not through "..", absolute paths, nor symlinks that point outside it
// (os.Root), so a pull request that adds a link to /proc/self/environ
// cannot have its target quoted in a suggestion or a fingerprint. Only
// regular files are read, so a link to a FIFO cannot hang a run.
func SourceFS(dir string) (fs.FS, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("source root: %w", err)
	}
	return regularFS{root.FS()}, nil
}

// MustSourceFS is SourceFS for a root already known to exist; an error
// leaves an empty root, so lines are synthesized rather than read.
func MustSourceFS(dir string) fs.FS {
	fsys, err := SourceFS(dir)
	if err != nil {
		return EmptyFS{}
	}
	return fsys
}

// regularFS refuses to open anything but a regular file or a directory.
type regularFS struct{ fs.FS }

func (r regularFS) Open(name string) (fs.File, error) {
	st, err := fs.Stat(r.FS, name)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() && !st.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fmt.Errorf("not a regular file (%s)", st.Mode().Type())}
	}
	return r.FS.Open(name)
}

// EmptyFS holds no file.
type EmptyFS struct{}

// Open fails: there is no file.
func (EmptyFS) Open(name string) (fs.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// Files reads the files of a checkout through a source root: the
// FileReader the review and annotations compute lines with.
type Files struct{ FS fs.FS }

// ReadFile reads path from the source root.
func (f Files) ReadFile(path string) ([]byte, error) { return fs.ReadFile(f.FS, path) }
