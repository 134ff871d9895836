#!/usr/bin/env python3
"""Sorts the rows of the `duplicates` command (the tool library's, on PATH
where the developers have it) into what they are, so that the count of
real duplicates can be followed from one change to the next:

  code        lines of code or tests written twice: the rows to act on;
  imports     both sides lie wholly in import blocks (`duplicates` passes
              over `import "x"` lines but not the lines of an import
              block);
  table       both sides are a test's opening and its table: comments, the
              import block, `func TestX(t *testing.T) {`, `x := map[...]{`
              and entries of the literal ("key": "value",), nothing else;
  golden      both sides are in testdata/ (expected output, generated);
  boilerplate what `duplicates` itself marks so.

Usage: scripts/duplicates-report.py [-v] [DIR]   (-v lists every row)
"""
import os
import re
import subprocess
import sys

ROW = re.compile(r'^D\d+ (\S+):(\d+)-(\d+) ~ (\S+):(\d+)-(\d+)')
ENTRY = re.compile(r'^\s*("[^"]*"|`[^`]*`|\w+)\s*:\s*.*,\s*$|^\s*\{.*\},\s*$|^\s*[}\]),]*\s*$'
                   r'|^\s*//|^func Test\w*\(t \*testing\.T\) \{$|^\s*\w+ := (map\[|\[\]struct)')


def lines_of(repo, path):
    try:
        with open(os.path.join(repo, path), encoding='utf-8', errors='replace') as f:
            return f.read().split('\n')
    except OSError:
        return []


def import_lines(lines):
    out, inside = set(), False
    for i, l in enumerate(lines, 1):
        t = l.strip()
        if t.startswith('import ('):
            inside = True
        if inside or t.startswith('import ') or t.startswith('package ') or t == '':
            out.add(i)
        if inside and t == ')':
            inside = False
    return out


def kind(repo, row):
    if 'boilerplate' in row:
        return 'boilerplate'
    a, a1, a2, b, b1, b2 = ROW.match(row).groups()
    sides = [(a, int(a1), int(a2)), (b, int(b1), int(b2))]
    if all('/testdata/' in '/' + p for p, _, _ in sides):
        return 'golden'
    texts = [(ls, import_lines(ls), s, e) for ls, s, e in ((lines_of(repo, p), s, e) for p, s, e in sides)]
    if all(set(range(s, e + 1)) <= imp for _, imp, s, e in texts):
        return 'imports'
    if all(all(ENTRY.match(l) or i in imp for i, l in enumerate(ls[s - 1:e], s)) for ls, imp, s, e in texts):
        return 'table'
    return 'code'


def main():
    args = [a for a in sys.argv[1:] if a != '-v']
    repo = args[0] if args else '.'
    out = subprocess.run(['duplicates', '--most', '200', '--seconds', '120'], cwd=repo,
                         capture_output=True, text=True, check=False).stdout
    rows = [l for l in out.splitlines() if ROW.match(l)]
    kinds = {}
    for r in rows:
        kinds.setdefault(kind(repo, r), []).append(r)
    print(out.splitlines()[0] if out else 'duplicates printed nothing')
    print(', '.join(f'{k} {len(kinds.get(k, []))}' for k in ('code', 'imports', 'table', 'golden', 'boilerplate')))
    for k in ('code',) if '-v' not in sys.argv else ('code', 'imports', 'table', 'golden', 'boilerplate'):
        for r in kinds.get(k, []):
            print(f'{k:12} {r}')
    for l in out.splitlines():
        if l.startswith(('left out:', 'incomplete:', '(+')):
            print(l)


if __name__ == '__main__':
    main()
