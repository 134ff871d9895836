package cli

import (
	"fmt"
	"io/fs"
	"os"
)

// sourceFS opens dir as a source root. Reads through it cannot leave dir:
// not through "..", absolute paths, nor symlinks that point outside it
// (os.Root), so a pull request that adds a link to /proc/self/environ
// cannot have its target quoted in a suggestion or a fingerprint. Only
// regular files are read, so a link to a FIFO cannot hang a run.
func sourceFS(dir string) (fs.FS, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("source root: %w", err)
	}
	return regularFS{root.FS()}, nil
}

// mustSourceFS is sourceFS for a root already known to exist; an error
// leaves an empty root, so lines are synthesized rather than read.
func mustSourceFS(dir string) fs.FS {
	fsys, err := sourceFS(dir)
	if err != nil {
		return emptyFS{}
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

type emptyFS struct{}

func (emptyFS) Open(name string) (fs.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}
