#!/usr/bin/env bash
# Builds the release archives of agc-sarif (linux, darwin, windows x amd64,
# arm64) and their checksums.txt with GoReleaser (.goreleaser.yaml). It
# publishes nothing and needs no network beyond the Go module proxy for a
# module not yet in the module cache.
#
#   scripts/release-build.sh          a snapshot of HEAD (make release-snapshot)
#   scripts/release-build.sh v1.2.3   the archives of release v1.2.3, from a
#                                     clean HEAD (the release workflow)
#
# DIST=DIR writes into DIR instead of dist/ (the tests build into a
# temporary directory).
set -euo pipefail
cd "$(dirname "$0")/.."

goreleaser=tools/bin/goreleaser
if [ ! -x "$goreleaser" ]; then
  echo "release-build: $goreleaser is not installed: run make setup" >&2
  exit 2
fi

case $# in
  0) unset AGC_RELEASE_VERSION ;;
  1)
    if ! [[ $1 =~ ^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$ ]]; then
      echo "release-build: the version $1 is not vMAJOR.MINOR.PATCH" >&2
      exit 2
    fi
    if [ -n "$(git status --porcelain)" ]; then
      echo "release-build: the work tree is not clean; a release is built from a commit" >&2
      git status --short >&2
      exit 2
    fi
    export AGC_RELEASE_VERSION="${1#v}" ;;
  *) echo "usage: scripts/release-build.sh [vMAJOR.MINOR.PATCH]" >&2; exit 2 ;;
esac

# GoReleaser reads the commit, its time and the remote together, and
# without a remote (a fresh `git init`, a worktree of one) it stamps no
# commit at all. The remote is only its guess of where to publish, which
# it never does here: name the project's repository.
if ! git ls-remote --get-url >/dev/null 2>&1; then
  n=${GIT_CONFIG_COUNT:-0}
  export GIT_CONFIG_COUNT=$((n + 1))
  export "GIT_CONFIG_KEY_$n=remote.origin.url" "GIT_CONFIG_VALUE_$n=https://github.com/agcgate/agc-action.git"
fi

config=.goreleaser.yaml
if [ -n "${DIST:-}" ]; then
  # GoReleaser reads its output directory from the configuration only.
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  { cat .goreleaser.yaml; printf '\ndist: %s\n' "$DIST"; } >"$tmp/goreleaser.yaml"
  config=$tmp/goreleaser.yaml
fi

"$goreleaser" release --snapshot --clean --config "$config"
