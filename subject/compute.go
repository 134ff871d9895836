package subject

import (
	"context"
	"fmt"
	"slices"
)

// Repo is what Compute reads of a repository (fingerprint.Git, which runs
// git).
type Repo interface {
	// Commit resolves rev to a commit's object id.
	Commit(ctx context.Context, rev string) (string, error)
	// Walk reads the tree objects w asks for, from the commit's root tree
	// (Walk.Start), in the order Walk.Next names them, into Walk.Add.
	Walk(ctx context.Context, commit string, w *Walk) error
	// Blob returns a blob's bytes.
	Blob(ctx context.Context, oid string) ([]byte, error)
	// File returns the bytes of the blob at path in rev's tree.
	File(ctx context.Context, rev, path string) ([]byte, error)
}

// Options say what to fingerprint.
type Options struct {
	Rev   string
	Scope Scope
	// GateID and GateVersion bind the fingerprint to a gate.
	GateID, GateVersion string
	// GateConfigs are repo-relative paths of the gate's configuration
	// files, read from Rev's tree.
	GateConfigs []string
	// Lazy leaves Result.Tree empty until Result.Entries makes it: a
	// binding or a carry that finds the fingerprint unchanged needs only
	// the count of the entries, not 6 MiB of them for 100,000 files. A
	// lazy walk of a scope also leaves out the trees beneath which the
	// scope selects nothing; Entries then lists the whole tree.
	Lazy bool
}

// Result is a fingerprint and what it was computed over.
type Result struct {
	Commit string
	Scope  Scope
	Gate   Gate
	// Tree is the entries the fingerprint was computed over; with
	// Options.Lazy, only once Entries has made it.
	Tree        Tree
	Fingerprint string

	count int                  // how many entries are selected, while tree is set
	tree  func() (Tree, error) // makes Tree; nil once made, or when Tree was given
}

// Entries returns the tree the fingerprint was computed over (Tree),
// making it on the first call: from the listing, or, when the walk left
// out trees beneath which the scope selects nothing, by listing the whole
// tree again, which can fail. Not safe for concurrent use.
func (r *Result) Entries() (Tree, error) {
	if r.tree != nil {
		t, err := r.tree()
		if err != nil {
			return Tree{}, err
		}
		r.Tree, r.tree = t, nil
	}
	return r.Tree, nil
}

// Count is how many entries the fingerprint covers, len(Entries().Selected)
// without making them.
func (r *Result) Count() int {
	if r.tree != nil {
		return r.count
	}
	return len(r.Tree.Selected)
}

// Compute fingerprints the tree of the commit at o.Rev.
func Compute(ctx context.Context, repo Repo, o Options) (*Result, error) {
	commit, err := repo.Commit(ctx, o.Rev)
	if err != nil {
		return nil, err
	}
	// A lazy walk leaves out the trees the scope cannot reach: what is
	// asked for next is most often the value alone. An eager one needs
	// them all anyway.
	var p *pruning
	if o.Lazy {
		p = &pruning{scope: o.Scope, keep: o.GateConfigs}
	}
	l, err := list(ctx, repo, commit, o.Scope, p)
	if err == nil && l.pruned && l.selectsLink() {
		// A selected link may point into a tree the walk left out.
		l, err = list(ctx, repo, commit, o.Scope, nil)
	}
	if err != nil {
		return nil, err
	}
	gate, err := readGate(ctx, repo, l, o)
	if err != nil {
		return nil, err
	}
	early := l.sumEarly(o.Scope, gate)
	read := func(oid string) ([]byte, error) { return repo.Blob(ctx, oid) }
	in, n, err := l.closeOver(o.Scope, read)
	if err != nil {
		return nil, fmt.Errorf("commit %s: %w", commit, err)
	}
	fp := ""
	if early != nil {
		fp = <-early
	} else {
		fp = l.sum(o.Scope, gate, in, n)
	}
	tree := func() (Tree, error) {
		if l.pruned {
			all, err := list(ctx, repo, commit, o.Scope, nil)
			if err != nil {
				return Tree{}, err
			}
			allIn, allN, err := all.closeOver(o.Scope, read)
			switch {
			case err != nil:
				return Tree{}, fmt.Errorf("commit %s: %w", commit, err)
			case allN != n:
				return Tree{}, fmt.Errorf("commit %s: the whole tree selects %d entries, the walk %d", commit, allN, n)
			}
			l, in = all, allIn
		}
		l.makeEntries()
		return Tree{All: l.entries, Selected: pick(l.entries, in, n)}, nil
	}
	res := &Result{Commit: commit, Scope: o.Scope, Gate: gate, Fingerprint: fp, count: n, tree: tree}
	if !o.Lazy {
		if _, err := res.Entries(); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// list lists commit's tree, deciding what the scope selects while the
// trees arrive and leaving out those p prunes.
func list(ctx context.Context, repo Repo, commit string, s Scope, p *pruning) (*listing, error) {
	if !ValidOID(commit) {
		return nil, fmt.Errorf("commit %q: not an object id", commit)
	}
	var scope *Scope
	if !s.Whole() {
		scope = &s
	}
	w := newWalk(len(commit)/2, scope, p)
	if err := repo.Walk(ctx, commit, w); err != nil {
		return nil, err
	}
	l, err := w.done()
	if err != nil {
		return nil, fmt.Errorf("commit %s: %w", commit, err)
	}
	return l, nil
}

func readGate(ctx context.Context, repo Repo, l *listing, o Options) (Gate, error) {
	g := Gate{ID: o.GateID, Version: o.GateVersion}
	paths := slices.Clone(o.GateConfigs)
	slices.Sort(paths)
	for _, p := range slices.Compact(paths) {
		i, ok := l.lookup(p)
		if !ok {
			return Gate{}, fmt.Errorf("gate config %s: not a file in the tree of %s", p, o.Rev)
		}
		e := l.at(i)
		if e.Mode != ModeFile && e.Mode != ModeExec {
			return Gate{}, fmt.Errorf("gate config %s: mode %s at %s is not a regular file", p, e.Mode, o.Rev)
		}
		data, err := repo.Blob(ctx, e.OID)
		if err != nil {
			return Gate{}, fmt.Errorf("gate config %s: %w", p, err)
		}
		g.Configs = append(g.Configs, NewConfig(p, data))
	}
	return g, nil
}

// ReadScopeFile reads and parses a scope file at rev (the base branch, so
// that a change cannot choose the scope it is judged on).
func ReadScopeFile(ctx context.Context, repo Repo, rev, path string) (Scope, error) {
	data, err := repo.File(ctx, rev, path)
	if err != nil {
		return Scope{}, fmt.Errorf("scope file: %w", err)
	}
	s, err := ParseScope(ParseScopeFile(data))
	if err != nil {
		return Scope{}, fmt.Errorf("scope file %s at %s: %w", path, rev, err)
	}
	return s, nil
}
