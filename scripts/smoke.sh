#!/usr/bin/env bash
# Runs agc-sarif on the bundled fixtures and checks what each command
# answers: the smoke test of a built image (GitHub CI, the release
# workflow) and of a built binary (the tests run it on the snapshot).
#
#   scripts/smoke.sh BINARY        a binary on this machine
#   scripts/smoke.sh --image IMAGE an image, run as its own non-root user
#                                  (no --user), the checkout mounted read-only
set -euo pipefail
cd "$(dirname "$0")/.."

fail() {
  echo "smoke: FAIL: $*" >&2
  exit 1
}

case "${1:-}" in
  --image)
    [ $# -eq 2 ] || fail "usage: scripts/smoke.sh --image IMAGE"
    image=$2
    user=$(docker image inspect --format '{{.Config.User}}' "$image")
    [ "$user" = 10001 ] || fail "$image runs as user '$user', not 10001"
    uid=$(docker run --rm --entrypoint id "$image" -u)
    [ "$uid" = 10001 ] || fail "$image runs as uid $uid, not 10001"
    echo "smoke: $image runs as uid $uid"
    agc() { docker run --rm -i -v "$PWD:/src:ro" -w /src "$image" "$@"; } ;;
  "" | -*) fail "usage: scripts/smoke.sh BINARY | --image IMAGE" ;;
  *)
    [ $# -eq 1 ] || fail "usage: scripts/smoke.sh BINARY"
    bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
    agc() { "$bin" "$@"; } ;;
esac

# expect CODE COMMAND...: COMMAND exits with CODE; its output is kept in $out.
expect() {
  local want=$1 got=0
  shift
  out=$("$@" 2>&1) || got=$?
  [ "$got" -eq "$want" ] || fail "$* exited $got, want $want:"$'\n'"$out"
  echo "smoke: ok: $* (exit $got)"
}

expect 0 agc version
[[ $out == "agc-sarif "* ]] || fail "version printed: $out"
expect 0 agc validate fixtures/agc/valid/allow-empty.json fixtures/agc/valid/block-patch.json fixtures/agc/valid/escalate-review.json fixtures/agc/valid/repaired-rewrite.json
expect 1 agc validate fixtures/agc/rules/fail.V6.block-all-repairable.json
[[ $out == *V6* ]] || fail "the V6 violation is not named: $out"
expect 0 agc render fixtures/agc/valid/block-patch.json
expect 0 agc convert --to sarif fixtures/agc/valid/allow-empty.json
[[ $out == *'"version":"2.1.0"'* || $out == *'"version": "2.1.0"'* ]] || fail "convert --to sarif wrote no SARIF 2.1.0: $out"
expect 0 agc schema
out=$(agc extract <fixtures/messages/code-review.md) || fail "extract failed: $out"
printf '%s\n' "$out" | agc validate - >/dev/null || fail "the extracted answer is not valid"
echo "smoke: ok: extract | validate -"
echo "smoke: passed"
