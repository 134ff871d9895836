#!/usr/bin/env bash
# Benchmark: the scoped fingerprint of a repository with 100,000 files, next
# to `git ls-tree -r -z HEAD` on the same repository, in the same run.
#
#   scripts/bench-fingerprint.sh [FILES] [RUNS]
#
# AGC_SARIF may name a built agc-sarif binary; otherwise one is built from
# this checkout. AGC_SARIF_BEFORE may name another build (an earlier
# commit's) to time alternately with it in the same run, for before/after
# figures; their runs alternate. Default: 9 runs each, a run being the
# mean of AGC_BENCH_REPEAT executions (default 5), the best and the median
# reported, each case beside its own ls-tree runs. The repository is generated with one `git fast-import`
# (100,000 distinct blobs, no process per file) in a temporary directory
# that is removed at exit. Prints each run, the best of each, and the ratio;
# last, the whole tree's fingerprint in process (BenchmarkGitCompute) the same way.
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
# top directory, every tenth file a test (f00009_test.go); a few executables
# and a symlink for realism. (gittest.BenchPath lays out
# the same tree.)
awk -v n="$files" 'BEGIN {
  for (i = 0; i < n; i++) {
    c = sprintf("package p%d // file %d\n", i % 97, i)
    printf "blob\nmark :%d\ndata %d\n%s\n", i + 1, length(c), c
  }
  printf "commit refs/heads/main\ncommitter Bench <bench@example.invalid> 1767225600 +0000\ndata 6\nbench\n"
  for (i = 0; i < n; i++) {
    mode = (i % 1000 == 7) ? "100755" : "100644"
    printf "M %s :%d d%03d/s%02d/f%05d%s.go\n", mode, i + 1, int(i / 1000) % 1000, int(i / 100) % 10, i, (i % 10 == 9) ? "_test" : ""
  }
  t = "s00/f00000.go"; printf "M 120000 inline d000/link.go\ndata %d\n%s\n", length(t), t
}' | git -C "$repo" fast-import --quiet
# No checkout: HEAD names main already, and both commands read only objects
# (writing 100,000 files took minutes on a loaded machine).

count=$(git -C "$repo" ls-tree -r -z HEAD | tr -cd '\0' | wc -c)
echo "repository: $count entries ($(du -sh "$repo/.git" | cut -f1) in .git), $runs runs each"

# Each run is timed twice over by bash's `time`: wall clock, and CPU (user
# + system, git's child processes included, from getrusage in
# microseconds). A run is AGC_BENCH_REPEAT executions back to back
# (default 5), and its figures are their mean in ms, so that one
# execution's scheduling hiccup (a few ms of a 35 ms command) does not
# decide a best or a median. On a busy machine the CPU figure is the
# steadier one; both are reported, best and median of the runs. Each
# round times `git ls-tree -r -z HEAD` and then every build, so the floor
# of each case is measured beside it, and two builds' runs alternate
# (before, after, before, ...): a change of load touches all alike.
repeat=${AGC_BENCH_REPEAT:-5}
TIMEFORMAT='%3R %3U %3S'
time_one() { # command...: prints "wall cpu" of one run (the mean of $repeat executions), in ms
  local t k
  t=$({ time for ((k = 0; k < repeat; k++)); do "$@" >/dev/null 2>&1; done; } 2>&1)
  awk -v k="$repeat" '{ printf "%.1f %.1f\n", $1 * 1000 / k, ($2 + $3) * 1000 / k }' <<<"$t"
}
summary() { # label walls cpus: prints the best and the median; sets best_* and med_*
  local label=$1 walls=$2 cpus=$3
  # shellcheck disable=SC2086 # the lists are words
  best_wall=$(best $walls) best_cpu=$(best $cpus)
  # shellcheck disable=SC2086
  med_wall=$(median $walls) med_cpu=$(median $cpus)
  printf '%-38s best: wall %6.1f ms  cpu %6.1f ms; median: wall %6.1f ms  cpu %6.1f ms   (wall: %s; cpu: %s)\n' \
    "$label" "$best_wall" "$best_cpu" "$med_wall" "$med_cpu" "$walls" "$cpus"
}

cd "$repo"
"$bin" fingerprint --repo "$repo" >/dev/null # warm the page cache
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
report() { # label args...: a round is ls-tree, then each build
  local label=$1; shift
  local b i r w c lw lc mlw mlc lsw='' lsc=''
  local -a bw=() bc=()
  for ((r = 0; r < runs; r++)); do
    read -r w c < <(time_one git ls-tree -r -z HEAD)
    lsw+="${lsw:+ }$w" lsc+="${lsc:+ }$c"
    for i in "${!bins[@]}"; do
      read -r w c < <(time_one "${bins[$i]}" fingerprint --repo "$repo" "$@")
      bw[i]+="${bw[i]:+ }$w" bc[i]+="${bc[i]:+ }$c"
    done
  done
  summary "  git ls-tree -r -z HEAD" "$lsw" "$lsc"
  lw=$best_wall lc=$best_cpu mlw=$med_wall mlc=$med_cpu
  for i in "${!bins[@]}"; do
    b=${bins[$i]}
    summary "$label${before:+ [$(basename "$b")]}" "${bw[i]}" "${bc[i]}"
    printf '%-38s ratio to ls-tree, best: wall %s, cpu %s; median: wall %s, cpu %s (aim: <= 1.20x)\n' "" \
      "$(ratio "$best_wall" "$lw")" "$(ratio "$best_cpu" "$lc")" "$(ratio "$med_wall" "$mlw")" "$(ratio "$med_cpu" "$mlc")"
  done
}
echo "each run: the mean of $repeat executions"
report "agc-sarif fingerprint (whole tree)"
report "agc-sarif fingerprint (4 patterns)" \
  --scope 'd0[0-4]*/**' --scope '!**/s09/**' --scope 'd09*/s0?/*.go' --scope '!d000/link.go'
report "agc-sarif fingerprint (src-style)" --scope 'd01*/**'
report "agc-sarif fingerprint (link in scope)" --scope 'd000/**'
# The shapes of issue 24, each over the whole tree: every top directory
# dNNN stands for a repository's src/, so "d0*" (all of them) is "src".
# (BenchmarkGitCompute's benchScopes are the same scopes.)
report "src/**" --scope 'd0*/**'
report "src/** !**/*_test.go" --scope 'd0*/**' --scope '!**/*_test.go'
report "src/**/*.go" --scope 'd0*/**/*.go'
report "**/NAME" --scope '**/f04242.go'
report "DIR/**/NAME" --scope 'd0*/**/f04242.go'
report "**/*.ext" --scope '**/*.go'

# The whole tree's fingerprint in process, as the Action and the library
# compute it (no process of agc-sarif to start, whose package inits take
# about 7 ms): BenchmarkGitCompute/whole-lazy on this repository, each
# round beside ls-tree. (Its scoped case selects d000/link.go here, so it
# would walk the whole tree twice: it is left to the commands above.)
GOWORK=off go test -C "$root" -c -o "$tmp/fingerprint.test" ./fingerprint
c=whole-lazy
plsw='' pw=''
for ((r = 0; r < runs; r++)); do
  read -r w _ < <(time_one git ls-tree -r -z HEAD)
  plsw+="${plsw:+ }$w"
  w=$(AGC_BENCH_REPO=$repo "$tmp/fingerprint.test" -test.run '^$' -test.bench "GitCompute/$c\$" -test.benchtime "${repeat}x" |
    awk '/ns\/op/ { printf "%.1f", $3 / 1e6 }')
  pw+="${pw:+ }$w"
done
# shellcheck disable=SC2086 # the lists are words
printf '%-38s best: wall %6.1f ms; median: wall %6.1f ms; ls-tree best %6.1f ms, median %6.1f ms: ratio best %s, median %s\n' \
  "in process, BenchmarkGitCompute/$c" "$(best $pw)" "$(median $pw)" "$(best $plsw)" "$(median $plsw)" \
  "$(ratio "$(best $pw)" "$(best $plsw)")" "$(ratio "$(median $pw)" "$(median $plsw)")"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
