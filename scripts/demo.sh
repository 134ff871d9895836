#!/usr/bin/env bash
# Runs agc-sarif on the bundled fixtures: what a gate's answer looks like to
# the validator, to a person, and to GitHub code scanning.
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${1:-bin/agc-sarif}
step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; "$@"; echo "(exit $?)"; }

step "$bin" validate fixtures/agc/valid/block-patch.json fixtures/agc/valid/escalate-review.json
step "$bin" validate fixtures/agc/rules/fail.V6.block-all-repairable.json fixtures/agc/rules/fail.L7.id-form.json
step "$bin" validate --chain fixtures/agc/rules/chain-fail.V9.still-open-seen.json
step "$bin" render fixtures/agc/valid/block-patch.json
step "$bin" extract fixtures/messages/code-review.md
step "$bin" convert --to sarif fixtures/agc/valid/block-patch.json
