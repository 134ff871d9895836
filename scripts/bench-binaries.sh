# Sourced by scripts/bench-*.sh: sets bins to the agc-sarif builds to time
# (AGC_SARIF, or one built from this checkout into $tmp; AGC_SARIF_BEFORE
# first when set) and before. Needs root and tmp.
# shellcheck shell=bash disable=SC2034,SC2154 # the caller sets root and tmp, and reads bins
bin=${AGC_SARIF:-}
if [[ -z $bin ]]; then
  bin=$tmp/agc-sarif
  (cd "$root" && go build -o "$bin" ./cmd/agc-sarif)
fi
before=${AGC_SARIF_BEFORE:-}
bins=("$bin")
if [[ -n $before ]]; then bins=("$before" "$bin"); fi
