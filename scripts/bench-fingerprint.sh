#!/usr/bin/env bash
# Benchmark: the scoped fingerprint of a repository with 100,000 files, next
# to `git ls-tree -r -z HEAD` on the same repository, in the same run.
#
#   scripts/bench-fingerprint.sh [FILES] [RUNS]
#
# AGC_SARIF may name a built agc-sarif binary; otherwise one is built from
# this checkout. AGC_SARIF_BEFORE may name another build (an earlier
# commit's) to time alternately with it in the same run, for before/after
# figures; their runs alternate. Default: 9 runs each, the best and the
# median reported. The repository is generated with one `git fast-import`
# (100,000 distinct blobs, no process per file) in a temporary directory
# that is removed at exit. Prints each run, the best of each, and the ratio.
set -euo pipefail

files=${1:-100000}
runs=${2:-9}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1

# shellcheck source=scripts/bench-binaries.sh
. "$root/scripts/bench-binaries.sh"

repo=$tmp/repo
git init -q -b main "$repo"
# d000..d099/s00..s09/f00000.go: 100 files a directory, 10 sub-directories a
# top directory; a few executables and symlinks for realism.
awk -v n="$files" 'BEGIN {
  for (i = 0; i < n; i++) {
    c = sprintf("package p%d // file %d\n", i % 97, i)
    printf "blob\nmark :%d\ndata %d\n%s\n", i + 1, length(c), c
  }
  printf "commit refs/heads/main\ncommitter Bench <bench@example.invalid> 1767225600 +0000\ndata 6\nbench\n"
  for (i = 0; i < n; i++) {
    mode = (i % 1000 == 7) ? "100755" : "100644"
    printf "M %s :%d d%03d/s%02d/f%05d.go\n", mode, i + 1, int(i / 1000) % 1000, int(i / 100) % 10, i
  }
  t = "s00/f00000.go"; printf "M 120000 inline d000/link.go\ndata %d\n%s\n", length(t), t
}' | git -C "$repo" fast-import --quiet
git -C "$repo" reset -q --hard main

count=$(git -C "$repo" ls-tree -r -z HEAD | tr -cd '\0' | wc -c)
echo "repository: $count entries ($(du -sh "$repo/.git" | cut -f1) in .git), $runs runs each"

# Each run is timed twice over by bash's `time`: wall clock, and CPU (user
# + system, git's child processes included, from getrusage in
# microseconds, printed in ms). On a busy machine the CPU figure is the
# steadier one; both are reported, best and median of the runs, in ms.
# With two builds, their runs alternate (before, after, before, ...), so
# that a change of load in between touches both alike.
TIMEFORMAT='%3R %3U %3S'
time_one() { # command...: prints "wall cpu" of one run, in ms
  local t
  t=$({ time "$@" >/dev/null 2>&1; } 2>&1)
  awk '{ printf "%d %d\n", $1 * 1000, ($2 + $3) * 1000 }' <<<"$t"
}
summary() { # label walls cpus: prints the best and the median; sets best_* and med_*
  local label=$1 walls=$2 cpus=$3
  # shellcheck disable=SC2086 # the lists are words
  best_wall=$(printf '%s\n' $walls | sort -n | head -n 1) best_cpu=$(printf '%s\n' $cpus | sort -n | head -n 1)
  # shellcheck disable=SC2086
  med_wall=$(median $walls) med_cpu=$(median $cpus)
  printf '%-38s best: wall %5d ms  cpu %5d ms; median: wall %5d ms  cpu %5d ms   (wall: %s; cpu: %s)\n' \
    "$label" "$best_wall" "$best_cpu" "$med_wall" "$med_cpu" "$walls" "$cpus"
}

cd "$repo"
"$bin" fingerprint --repo "$repo" >/dev/null # warm the page cache
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
walls='' cpus=''
for ((r = 0; r < runs; r++)); do
  read -r w c < <(time_one git ls-tree -r -z HEAD)
  walls+="${walls:+ }$w" cpus+="${cpus:+ }$c"
done
summary "git ls-tree -r -z HEAD" "$walls" "$cpus"
lw=$best_wall lc=$best_cpu mlw=$med_wall mlc=$med_cpu
report() { # label args...
  local label=$1; shift
  local b i r w c
  local -a bw=() bc=()
  for ((r = 0; r < runs; r++)); do
    for i in "${!bins[@]}"; do
      read -r w c < <(time_one "${bins[$i]}" fingerprint --repo "$repo" "$@")
      bw[i]+="${bw[i]:+ }$w" bc[i]+="${bc[i]:+ }$c"
    done
  done
  for i in "${!bins[@]}"; do
    b=${bins[$i]}
    summary "$label${before:+ [$(basename "$b")]}" "${bw[i]}" "${bc[i]}"
    printf '%-38s ratio to ls-tree, best: wall %s, cpu %s; median: wall %s, cpu %s (aim: <= 1.20x)\n' "" \
      "$(ratio "$best_wall" "$lw")" "$(ratio "$best_cpu" "$lc")" "$(ratio "$med_wall" "$mlw")" "$(ratio "$med_cpu" "$mlc")"
  done
}
report "agc-sarif fingerprint (whole tree)"
report "agc-sarif fingerprint (4 patterns)" \
  --scope 'd0[0-4]*/**' --scope '!**/s09/**' --scope 'd09*/s0?/*.go' --scope '!d000/link.go'
report "agc-sarif fingerprint (src-style)" --scope 'd01*/**'
report "agc-sarif fingerprint (link in scope)" --scope 'd000/**'
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
