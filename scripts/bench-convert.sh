#!/usr/bin/env bash
# Benchmark: agc-sarif convert on a generated SARIF log, SARIF → AGC → SARIF,
# next to the floor (scripts/bench/floor: a plain encoding/json decode and
# encode of the same file) and to the peers (the SARIF Multitool's
# `rewrite`, reviewdog -f=sarif -reporter=local), in the same run.
#
#   scripts/bench-convert.sh [RESULTS] [FILES] [RUNS] [full|lean]
#
# Defaults: 25,000 results over 2,000 files, 6 runs, full results (a
# region, a snippet, a line hash, a fix on every tenth: about 440 bytes a
# result). lean results carry a rule, a level, a message and a line (about
# 170 bytes), so that 1,000,000 of them fit the 256 MiB input limit:
# scripts/bench-convert.sh 1000000 20000 3 lean.
# AGC_MAX_BYTES is passed as --max-bytes (the generated log of 1,000,000
# results is larger than the default limit of 256 MiB). AGC_SARIF may name a built agc-sarif; otherwise one is built from this
# checkout. AGC_SARIF_BEFORE may name another build (an earlier commit's)
# to time alternately with it. The log is generated in a temporary
# directory that is removed at exit. Each line prints the median and best
# wall time, the median CPU time and the largest peak RSS of the runs, and
# the ratio of the medians to the floor's. Both ways are compared with two
# floors: the SARIF's decode + encode (one process doing the round trip in
# memory), and that plus the AGC file's decode + encode (what the two
# processes, SARIF -> AGC and AGC -> SARIF, must read and write). The aim
# is against the second: the two conversions also read and write the AGC
# file, and the SARIF they write carries each finding whole (33 MB against
# the 11 MB read), so the floor program itself, doing only their reading
# and writing, takes over twice the SARIF's floor (the last figure).
set -euo pipefail

results=${1:-25000}
files=${2:-2000}
runs=${3:-6}
shape=${4:-full}
max=${AGC_MAX_BYTES:-268435456}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shellcheck source=scripts/bench-binaries.sh
. "$root/scripts/bench-binaries.sh"
GOWORK=off go build -C "$root/scripts/bench/floor" -o "$tmp/floor" .

# The shape of the log benchLog in sarif/bench_test.go generates (50 rules,
# a region, a snippet and a line hash on every result, a fix on every
# tenth), not its bytes: the line hashes are other hex digits.
log=$tmp/bench.sarif
awk -v n="$results" -v nf="$files" -v shape="$shape" 'BEGIN {
  printf "{\"version\":\"2.1.0\",\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"Bench Lint\",\"version\":\"1.0.0\",\"rules\":["
  for (r = 0; r < 50; r++) {
    printf "%s{\"id\":\"BL%03d\",\"name\":\"Rule%d\",\"shortDescription\":{\"text\":\"Rule %d says something.\"},\"defaultConfiguration\":{\"level\":\"warning\"},\"helpUri\":\"https://example.com/BL%03d\"}", (r ? "," : ""), r, r, r, r
  }
  printf "]}},\"results\":["
  split("error warning note", lv, " ")
  for (i = 0; i < n; i++) {
    f = i % nf
    file = sprintf("src/pkg%03d/file%04d.go", int(f / 20), f)
    line = 1 + int(i / nf) * 3
    if (shape == "lean") {
      printf "%s{\"ruleId\":\"BL%03d\",\"level\":\"%s\",\"message\":{\"text\":\"Result %d breaks rule %d.\"},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":\"%s\"},\"region\":{\"startLine\":%d}}}]}", (i ? "," : ""), i % 50, lv[i % 3 + 1], i, i % 50, file, line
      continue
    }
    printf "%s{\"ruleId\":\"BL%03d\",\"ruleIndex\":%d,\"level\":\"%s\",\"message\":{\"text\":\"Result %d: the value at this place breaks rule %d.\"},", (i ? "," : ""), i % 50, i % 50, lv[i % 3 + 1], i, i % 50
    printf "\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":\"%s\",\"uriBaseId\":\"%%SRCROOT%%\"},\"region\":{\"startLine\":%d,\"startColumn\":5,\"endColumn\":30,\"snippet\":{\"text\":\"x := compute(%d)\"}}}}],", file, line, i
    printf "\"partialFingerprints\":{\"primaryLocationLineHash\":\"%08x%08x:1\"}", (i * 2654435761) % 4294967296, i
    if (i % 10 == 0) {
      printf ",\"fixes\":[{\"description\":{\"text\":\"Use the constant.\"},\"artifactChanges\":[{\"artifactLocation\":{\"uri\":\"%s\",\"uriBaseId\":\"%%SRCROOT%%\"},\"replacements\":[{\"deletedRegion\":{\"startLine\":%d,\"startColumn\":5,\"endColumn\":30,\"snippet\":{\"text\":\"compute(%d)\"}},\"insertedContent\":{\"text\":\"computeConst\"}}]}]}]", file, line, i
    }
    printf "}"
  }
  printf "]}]}\n"
}' >"$log"
size=$(stat -c %s "$log")
echo "log: $results $shape results over $files files, $size bytes; $runs runs each; load average: $(cut -d' ' -f1-3 /proc/loadavg)"

# time_cmd label command...: runs it $runs times; sets med_wall, med_cpu
# (ms) and max_rss (KiB).
time_cmd() {
  local label=$1; shift
  local r line walls=() cpus=() rss=0
  for ((r = 0; r < runs; r++)); do
    if ! line=$(/usr/bin/time -f '%e %U %S %M' "$@" 2>&1 >/dev/null | tail -n 1); then
      printf '%-44s failed: %s\n' "$label" "$line"
      med_wall=0 med_cpu=0
      return 0
    fi
    read -r e u s m <<<"$line"
    walls+=("$(awk -v e="$e" 'BEGIN { printf "%d", e * 1000 }')")
    cpus+=("$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%d", (u + s) * 1000 }')")
    if ((m > rss)); then rss=$m; fi
  done
  med_wall=$(median "${walls[@]}")
  best_wall=$(best "${walls[@]}")
  med_cpu=$(median "${cpus[@]}")
  max_rss=$rss
  printf '%-44s wall median %6d ms best %6d ms  cpu median %6d ms  peak RSS %5d MiB (%.2fx the input)\n' \
    "$label" "$med_wall" "$best_wall" "$med_cpu" $((max_rss / 1024)) "$(awk -v r="$max_rss" -v s="$size" 'BEGIN { print r * 1024 / s }')"
}

time_cmd "floor: encoding/json decode + encode" "$tmp/floor" "$log" "$tmp/floor.json"
fw=$med_wall fc=$med_cpu
# The two conversions also read and write the AGC file: the floor of what
# the two processes must do is the floor on the SARIF plus the floor on the
# AGC (each decoded once and encoded once).
if ((results <= 25000)); then # both ways only then: see below
  "$bin" convert --max-bytes "$max" --source-root "$tmp" -o "$tmp/floor.agc.json" "$log"
  time_cmd "floor: the same on the AGC ($(stat -c %s "$tmp/floor.agc.json") bytes)" "$tmp/floor" "$tmp/floor.agc.json" "$tmp/floor2.json"
  f2w=$((fw + med_wall)) f2c=$((fc + med_cpu))
fi
for b in "${bins[@]}"; do
  tag=${before:+ [$(basename "$b")]}
  "$b" convert --max-bytes "$max" --source-root "$tmp" -o "$tmp/out.agc.json" "$log"
  time_cmd "agc-sarif convert SARIF -> AGC$tag" "$b" convert --max-bytes "$max" --source-root "$tmp" -o "$tmp/out.agc.json" "$log"
  aw=$med_wall ac=$med_cpu
  if ((results > 25000)); then
    # GitHub takes at most 25,000 results a run: the SARIF writer refuses more.
    printf '%-44s SARIF -> AGC to the floor: wall %s, cpu %s (aim: <= 1.50x)\n' "" "$(ratio "$aw" "$fw")" "$(ratio "$ac" "$fc")"
    continue
  fi
  time_cmd "agc-sarif convert AGC -> SARIF$tag" "$b" convert --max-bytes "$max" --source-root "$tmp" -o "$tmp/out.sarif" "$tmp/out.agc.json"
  printf '%-44s both ways to the SARIF + AGC floor: wall %s, cpu %s (aim: <= 1.30x)\n' "" \
    "$(ratio $((aw + med_wall)) "$f2w")" "$(ratio $((ac + med_cpu)) "$f2c")"
  printf '%-44s both ways to the SARIF floor alone: wall %s, cpu %s (the floor itself, doing their reading and writing: %s)\n' "" \
    "$(ratio $((aw + med_wall)) "$fw")" "$(ratio $((ac + med_cpu)) "$fc")" "$(ratio "$f2c" "$fc")"
  printf '%-44s SARIF -> AGC to the floor: wall %s, cpu %s (aim: <= 1.50x)\n' "" "$(ratio "$aw" "$fw")" "$(ratio "$ac" "$fc")"
done

multitool=$root/tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
if [[ -x $multitool ]]; then
  time_cmd "peer: SARIF Multitool rewrite" "$multitool" rewrite "$log" -o "$tmp/mt.sarif" --log 'ForceOverwrite;Minify'
else
  echo "peer: SARIF Multitool not installed (make setup); skipped"
fi
reviewdog=$root/tools/bin/reviewdog
if [[ -x $reviewdog ]]; then
  # reviewdog reads the log from standard input; -filter-mode=nofilter
  # keeps it from needing a diff.
  # shellcheck disable=SC2016 # expanded by sh -c
  time_cmd "peer: reviewdog -f=sarif -reporter=local" sh -c '"$1" -f=sarif -reporter=local -filter-mode=nofilter -fail-level=none <"$2"' _ "$reviewdog" "$log"
else
  echo "peer: reviewdog not installed (make setup); skipped"
fi
