#!/usr/bin/env bash
# Runs agc-sarif on the bundled fixtures: what gates' answers look like to
# the validator, to a person, to SARIF tools and to Claude Code.
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${1:-bin/agc-sarif}
step() {
  printf '\n\033[1m$ %s\033[0m\n' "$*"
  bash -c "$*"
  echo "(exit $?)"
}

step "$bin validate fixtures/agc/valid/block-patch.json fixtures/agc/valid/escalate-review.json"
step "$bin validate fixtures/agc/rules/fail.V6.block-all-repairable.json fixtures/agc/rules/fail.L7.id-form.json"
step "$bin validate --chain fixtures/agc/rules/chain-fail.V9.still-open-seen.json"
step "$bin render fixtures/agc/valid/block-patch.json"
step "$bin extract fixtures/messages/code-review.md | $bin validate -"
step "$bin convert --to text fixtures/sarif/lint-two-runs.sarif"
step "$bin convert --to sarif fixtures/agc/valid/block-patch.json | head -c 600; echo"
step "$bin convert --from gate-receipt --to claude-pre-tool-use fixtures/bridges/gate-receipt/deny-1.json"
