#!/usr/bin/env bash
# Runs every native fuzz target in the module for the given time each
# (default 60s) and stops at the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
time=${1:-60s}
grep -rl --include='*_test.go' '^func Fuzz' . | sort | while read -r file; do
  pkg=./$(dirname "${file#./}")
  for target in $(grep -o '^func Fuzz[A-Za-z0-9_]*' "$file" | sed 's/^func //'); do
    echo "== $pkg $target ($time)"
    # Minimising each new input for the default 60 s would stall the run.
    go test -run '^$' -fuzz "^${target}\$" -fuzztime "$time" -fuzzminimizetime 5s "$pkg"
  done
done
