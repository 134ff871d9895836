package action

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/formats"
	"github.com/agcgate/agc-action/internal/collect"
	"github.com/bmatcuk/doublestar/v4"
)

// inputFile is a file an input line names, and the gate the line pairs it
// with ("" when none does).
type inputFile struct{ path, gate string }

// expand resolves each line's glob against root, read through fsys,
// sorted, each file once.
// A pattern that matches nothing is an error: a gate whose answer is
// missing must not pass unnoticed. A file matched by a paired line and by
// an unpaired glob is paired; paired with two gates, it is an error.
func expand(fsys fs.FS, root string, patterns []collect.Pattern) ([]inputFile, error) {
	var files []inputFile
	at := map[string]int{}
	for _, p := range patterns {
		paths, err := expandOne(fsys, root, p.Glob)
		if err != nil {
			return nil, err
		}
		for _, f := range paths {
			i, seen := at[f]
			switch {
			case !seen:
				at[f] = len(files)
				files = append(files, inputFile{f, p.Gate})
			case p.Gate == "" || files[i].gate == p.Gate:
			case files[i].gate == "":
				files[i].gate = p.Gate
			default:
				return nil, fmt.Errorf("%s is paired with gate %s and with gate %s; a file answers one gate", relName(root, f), files[i].gate, p.Gate)
			}
		}
	}
	return files, nil
}

// expandOne resolves one glob, or an absolute path, to files.
func expandOne(fsys fs.FS, root, p string) ([]string, error) {
	if filepath.IsAbs(p) {
		if _, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		return []string{p}, nil
	}
	matches, err := doublestar.Glob(fsys, filepath.ToSlash(p), doublestar.WithFilesOnly())
	if err != nil {
		return nil, fmt.Errorf("pattern %q: %w", p, err)
	}
	if len(matches) == 0 {
		return nil, fmt.Errorf("pattern %q matches no file under %s", p, root)
	}
	slices.Sort(matches)
	files := make([]string, len(matches))
	for i, m := range matches {
		files[i] = filepath.Join(root, filepath.FromSlash(m))
	}
	return files, nil
}

// relName names a file relative to the workspace when it lies inside it.
func relName(root, file string) string {
	if rel, err := filepath.Rel(root, file); err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	return file
}

// collectDiffs reads each fixer's diff the diff input names as one
// deterministic gate's answer: the paired gate, or, unpaired, a gate
// named after the file (warned). Hunks become patch remedies against the
// files in the workspace, so they become suggestions.
func (r *actionRun) collectDiffs(c *collect.Set) error {
	r.warnUnpaired("diff", r.cfg.diff, "a gate id made from its file's name")
	files, err := expand(r.src, r.root, r.cfg.diff)
	if err != nil {
		return &inputError{"diff", err.Error()}
	}
	if r.srcErr != nil {
		return r.srcErr
	}
	f, _ := r.reg.Lookup("diff")
	for _, in := range files {
		data, err := r.readWorkspace(in.path, agc.DefaultMaxBytes)
		if err != nil {
			return err
		}
		name := relName(r.root, in.path)
		if int64(len(data)) > agc.DefaultMaxBytes {
			c.TooLarge(name, data)
			continue
		}
		c.AddRead(f, name, data, formats.ReadOptions{FS: r.src, Root: filepath.ToSlash(r.root), FailLevel: r.cfg.failLevel, Gate: in.gate})
	}
	return nil
}
