# Sourced by scripts/bench-*.sh: sets bins to the agc-sarif builds to time
# (AGC_SARIF, or one built from this checkout into $tmp; AGC_SARIF_BEFORE
# first when set) and before, and defines median and ratio. Needs root
# and tmp.
# shellcheck shell=bash disable=SC2034,SC2154 # the caller sets root and tmp, and reads bins
bin=${AGC_SARIF:-}
if [[ -z $bin ]]; then
  bin=$tmp/agc-sarif
  (cd "$root" && go build -o "$bin" ./cmd/agc-sarif)
fi
before=${AGC_SARIF_BEFORE:-}
bins=("$bin")
if [[ -n $before ]]; then bins=("$before" "$bin"); fi

# median n...: the median of the numbers (the lower middle one of an even count).
median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# best n...: the smallest of the numbers.
best() { printf '%s\n' "$@" | sort -n | head -n 1; }
# ratio a b: a / b as 1.23x (b = 0 counts as 1).
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) b = 1; printf "%.2fx", a / b }'; }
