#!/usr/bin/env bash
# make bench for an earlier commit and this checkout, side by side in one
# run, so that the two columns are measured on the same machine under the
# same load:
#
#   scripts/bench-compare.sh COMMIT [BENCH]
#
# The earlier commit's tree is exported (git archive) into a temporary
# directory. Each package's benchmarks run COUNT times (BENCHCOUNT, 6 by
# default), the two trees taking turns, and tools/bin/benchstat prints the
# earlier commit's figures beside this checkout's. BENCH is the -bench
# pattern (. by default). Then the built binaries are timed alternately by
# scripts/bench-convert.sh and scripts/bench-fingerprint.sh
# (AGC_SARIF_BEFORE), with make bench's arguments. Set BENCHQUICK=1 to
# skip the 1,000,000-result conversion. Output files are kept in
# BENCHOUT (a temporary directory by default), whose name is printed.
set -euo pipefail

base=${1:?usage: scripts/bench-compare.sh COMMIT [BENCH]}
pattern=${2:-.}
count=${BENCHCOUNT:-6}
root=$(cd "$(dirname "$0")/.." && pwd)
out=${BENCHOUT:-$(mktemp -d)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rev=$(git -C "$root" rev-parse --short "$base")
echo "bench-compare: $rev (before) and $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet || echo '+changes') (after); files in $out"
mkdir -p "$tmp/before"
git -C "$root" archive "$base" | tar -x -C "$tmp/before"

# The packages with benchmarks, in either tree.
pkgs() { (cd "$1" && grep -rl --include='*_test.go' '^func Benchmark' . | xargs -n1 dirname | sort -u); }
mapfile -t all < <({ pkgs "$tmp/before"; pkgs "$root"; } | sort -u)

: >"$out/before.txt"
: >"$out/after.txt"
for ((i = 1; i <= count; i++)); do
  for p in "${all[@]}"; do
    for side in before after; do
      dir=$root
      [[ $side == before ]] && dir=$tmp/before
      [[ -d $dir/$p ]] || continue
      (cd "$dir" && go test -run '^$' -bench "$pattern" -benchmem -count=1 "$p") |
        grep -E '^(Benchmark|goos|goarch|pkg|cpu)' >>"$out/$side.txt" || true
    done
  done
done
"$root/tools/bin/benchstat" before="$out/before.txt" after="$out/after.txt" | tee "$out/benchstat.txt"

(cd "$tmp/before" && go build -o "$tmp/agc-sarif-before" ./cmd/agc-sarif)
export AGC_SARIF_BEFORE=$tmp/agc-sarif-before
"$root/scripts/bench-convert.sh" 25000 2000 "$count" | tee "$out/convert-25k.txt"
if [[ -z ${BENCHQUICK:-} ]]; then
  "$root/scripts/bench-convert.sh" 1000000 20000 3 lean | tee "$out/convert-1m.txt"
fi
"$root/scripts/bench-fingerprint.sh" 100000 9 | tee "$out/fingerprint.txt"
