package subject

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// memRepo is a repository held in memory, the Repo the package's tests
// compute over: one commit's tree as git writes its objects (SHA-1 ids,
// entries in git's order), and the blobs they name.
type memRepo struct {
	objects map[string]memObject
	root    string // the id of the commit's tree
}

type memObject struct {
	typ  string
	data []byte
}

// memCommit is the id memRepo.Commit gives every revision.
const memCommit = "c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0"

// newRepo builds a commit's tree from (path, mode, content) triples; for
// a gitlink the content is its commit id.
func newRepo(t testing.TB, spec ...string) *memRepo {
	t.Helper()
	m := &memRepo{objects: map[string]memObject{}}
	type dir map[string]any // name: *dir, or [2]string{mode, oid}
	root := dir{}
	for i := 0; i+2 < len(spec); i += 3 {
		path, mode, content := spec[i], spec[i+1], spec[i+2]
		if !validPath(path) {
			t.Fatalf("bad path %q", path)
		}
		oid := content
		if mode != ModeGitlink {
			oid = m.put(typeBlob, []byte(content))
		}
		d := root
		comps := strings.Split(path, "/")
		for _, c := range comps[:len(comps)-1] {
			sub, ok := d[c].(dir)
			if !ok {
				sub = dir{}
				d[c] = sub
			}
			d = sub
		}
		d[comps[len(comps)-1]] = [2]string{mode, oid}
	}
	var write func(d dir) string
	write = func(d dir) string {
		// git orders a tree's entries by name, a tree's as if it ended in "/"
		key := func(name string) string {
			if _, ok := d[name].(dir); ok {
				return name + "/"
			}
			return name
		}
		names := make([]string, 0, len(d))
		for name := range d {
			names = append(names, name)
		}
		slices.SortFunc(names, func(a, b string) int { return strings.Compare(key(a), key(b)) })
		var data []byte
		for _, name := range names {
			mode, oid := "40000", ""
			switch v := d[name].(type) {
			case dir:
				oid = write(v)
			case [2]string:
				mode, oid = v[0], v[1]
			}
			raw, _ := hex.DecodeString(oid)
			data = append(fmt.Appendf(data, "%s %s\x00", mode, name), raw...)
		}
		return m.put("tree", data)
	}
	m.root = write(root)
	return m
}

// put stores an object and returns its id, as git would compute it.
func (m *memRepo) put(typ string, data []byte) string {
	h := sha1.Sum(append(fmt.Appendf(nil, "%s %d\x00", typ, len(data)), data...))
	oid := hex.EncodeToString(h[:])
	m.objects[oid] = memObject{typ, data}
	return oid
}

func (m *memRepo) Commit(_ context.Context, rev string) (string, error) { return memCommit, nil }

func (m *memRepo) Walk(_ context.Context, commit string, w *Walk) error {
	w.Start(m.root)
	for {
		oid, pending := w.Next()
		if pending == 0 {
			return nil
		}
		o, ok := m.objects[oid]
		if !ok {
			return fmt.Errorf("%s: no such object", oid)
		}
		if _, err := w.Add(o.typ, o.data); err != nil {
			return err
		}
	}
}

func (m *memRepo) Blob(_ context.Context, oid string) ([]byte, error) {
	o, ok := m.objects[oid]
	if !ok || o.typ != typeBlob {
		return nil, fmt.Errorf("no blob %s", oid)
	}
	return o.data, nil
}

// File is not asked for: a scope file is read at another revision.
func (m *memRepo) File(context.Context, string, string) ([]byte, error) {
	return nil, fmt.Errorf("memRepo holds one revision")
}

// compute computes the fingerprint of m over patterns, with the tree.
func (m *memRepo) compute(t testing.TB, patterns ...string) (*Result, error) {
	t.Helper()
	return Compute(context.Background(), m, Options{Rev: "HEAD", Scope: mustScope(t, patterns...)})
}

// selectPaths returns the paths the scope of patterns selects of m.
func (m *memRepo) selectPaths(t testing.TB, patterns ...string) ([]string, error) {
	t.Helper()
	res, err := m.compute(t, patterns...)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, e := range res.Tree.Selected {
		paths = append(paths, e.Path)
	}
	return paths, nil
}

func mustScope(t testing.TB, patterns ...string) Scope {
	t.Helper()
	s, err := ParseScope(patterns)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
