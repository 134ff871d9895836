#!/usr/bin/env python3
"""Sorts the rows of the `duplicates` command (the tool library's, on PATH
where the developers have it) into what they are, so that the count of
real duplicates can be followed from one change to the next:

  code        lines of code or tests written twice: the rows to act on;
  imports     the pair shares fewer lines than `duplicates` asks for (6)
              once the lines of import blocks are passed over too:
              `duplicates` passes over blank lines, comments, lone
              punctuation and `import "x"` lines, but counts each line of
              an import block, so a file's imports, a doc comment and a
              test's first line or two make a row;
  table       both sides are a test's opening and its table: comments, the
              import block, `func TestX(t *testing.T) {`, `x := map[...]{`,
              `for _, tc := range []struct {`, the fields of that struct
              and entries of the literal ("key": "value", {...}, or a
              lone "value",), nothing else; or, on a shape row (no line
              alike to the letter, so the entries are different data),
              fewer than six other lines, the tool's own minimum;
  golden      both sides are in testdata/ (expected output, generated), or
              in a file of GENERATED: a cut of a pinned upstream that a
              test writes with -update and checks, committed beside the
              code that reads it;
  boilerplate what `duplicates` itself marks so.

Usage: scripts/duplicates-report.py [-v] [DIR]   (-v lists every row)
"""
import os
import re
import subprocess
import sys

ROW = re.compile(r'^D\d+ (\S+):(\d+)-(\d+) ~ (\S+):(\d+)-(\d+)')
ENTRY = re.compile(r'^\s*("([^"\\]|\\.)*"|`[^`]*`|-?[\d.]+),\s*$|^\s*("[^"]*"|`[^`]*`|\w+)\s*:\s*.*,\s*$|^\s*\{.*\},\s*$|^\s*[}\]),]*\s*$'
                   r'|^\s*//|^func Test\w*\(t \*testing\.T\) \{$|^\s*\w+ := (map\[|\[\]struct)'
                   r'|^\s*for _, \w+ := range \[\]struct \{$')
# what `duplicates` passes over: blank lines, comments, lone punctuation
PASSED = re.compile(r'^\s*(//.*)?$|^[\s{}()\[\],;]*$')
MIN_LINES = 6  # `duplicates`' own minimum (--min-lines)
# GENERATED names the committed files, outside testdata/, that a test
# writes (-update) and checks from a pinned upstream, with that test: data
# in a source language, not code written twice.
GENERATED = {
    'ghapi/ghtest/graphql/github.subset.graphql':
        "TestGraphQLSubset's cut of @octokit/graphql-schema's schema.graphql",
}


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


def struct_fields(lines):
    """The field lines of a table's element type: `[]struct {` up to `}`."""
    out, inside = set(), False
    for i, l in enumerate(lines, 1):
        t = l.strip()
        if inside and t.startswith('}'):
            inside = False
        elif inside:
            out.add(i)
        if t.endswith('[]struct {'):
            inside = True
    return out


def kind(repo, row):
    if 'boilerplate' in row:
        return 'boilerplate'
    a, a1, a2, b, b1, b2 = ROW.match(row).groups()
    sides = [(a, int(a1), int(a2)), (b, int(b1), int(b2))]
    if all('/testdata/' in '/' + p or p in GENERATED for p, _, _ in sides):
        return 'golden'
    texts = [(ls, import_lines(ls), s, e) for ls, s, e in ((lines_of(repo, p), s, e) for p, s, e in sides)]
    if all(sum(1 for i, l in enumerate(ls[s - 1:e], s) if i not in imp and not PASSED.match(l)) < MIN_LINES
           for ls, imp, s, e in texts):
        return 'imports'
    code = [sum(1 for i, l in enumerate(ls[s - 1:e], s)
                if not (ENTRY.match(l) or PASSED.match(l) or i in imp or i in struct_fields(ls))) for ls, imp, s, e in texts]
    if all(c == 0 for c in code) or ' shape' in row and all(c < MIN_LINES for c in code):
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
