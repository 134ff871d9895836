#!/usr/bin/env bash
# Installs the pinned external tools the tests and the linters use, into the
# git-ignored tools/:
#   - npm packages from tools/package-lock.json: Microsoft's SARIF Multitool,
#     GitHub's OpenAPI description and GraphQL schema, real webhook payloads,
#     commonmark.js,
#     eslint 10.15.0 with eslint-formatter-rdjson 1.0.6 and
#     @microsoft/eslint-formatter-sarif 3.1.0, prettier 3.10.1, and
#     GitHub Copilot CLI 1.0.102 (@github/copilot and its platform
#     package's native binary, which the hook end-to-end test runs offline);
#   - actionlint and reviewdog from the Go module proxy, into tools/bin;
#   - staticcheck and goimports from the Go module proxy, into tools/bin;
#   - benchstat from the Go module proxy, into tools/bin (comparing make
#     bench runs: tools/bin/benchstat old.txt new.txt);
#   - GoReleaser from the Go module proxy, into tools/bin (the release
#     archives: make release-snapshot, the release workflow);
#   - ShellCheck from Debian's packages, when it is not on PATH (it checks
#     the shell of action.yml, which actionlint does not read).
# The versions are pinned here, not in the main go.mod, so the tools'
# dependencies never reach agc-sarif's build.
#
#   scripts/setup.sh        everything (what make test runs)
#   scripts/setup.sh lint   only the linters (what make lint runs)
#   scripts/setup.sh release  only GoReleaser (make release-snapshot, the release workflow)
#   scripts/setup.sh bench  only benchstat (make bench)
#
# Safe to run again; it skips what is already in place.
set -euo pipefail
cd "$(dirname "$0")/.."

ACTIONLINT_VERSION=v1.7.12
REVIEWDOG_VERSION=v0.21.0
STATICCHECK_VERSION=v0.8.2
# goimports is released as part of golang.org/x/tools.
X_TOOLS_VERSION=v0.52.0
GORELEASER_VERSION=v2.15.1
# benchstat is released as part of golang.org/x/perf, which has no tags.
X_PERF_VERSION=v0.0.0-20260908200009-22c9c6c9d4da
# Debian 12 (bookworm)'s package; apt-cache policy shellcheck names it.
SHELLCHECK_DEB_VERSION=0.9.0-1

mkdir -p tools/bin
export GOBIN="$PWD/tools/bin"

# has_module BIN MODULE VERSION: BIN was built from MODULE at VERSION.
# (Module builds print "devel" or "master" for -version, so the build
# information is read instead.)
has_module() {
  go version -m "$1" 2>/dev/null | grep -q "[[:space:]]$2[[:space:]]*$3"
}

install_lint() {
  if ! has_module tools/bin/staticcheck honnef.co/go/tools "$STATICCHECK_VERSION"; then
    go install "honnef.co/go/tools/cmd/staticcheck@${STATICCHECK_VERSION}"
  fi
  if ! has_module tools/bin/goimports golang.org/x/tools "$X_TOOLS_VERSION"; then
    go install "golang.org/x/tools/cmd/goimports@${X_TOOLS_VERSION}"
  fi
}

install_release() {
  if ! has_module tools/bin/goreleaser github.com/goreleaser/goreleaser/v2 "$GORELEASER_VERSION"; then
    go install "github.com/goreleaser/goreleaser/v2@${GORELEASER_VERSION}"
  fi
}

install_bench() {
  if ! has_module tools/bin/benchstat golang.org/x/perf "$X_PERF_VERSION"; then
    go install "golang.org/x/perf/cmd/benchstat@${X_PERF_VERSION}"
  fi
}

# ShellCheck is not a Go module: it comes from Debian, as root (CI runs as
# root), pinned to the package version above; elsewhere it must be
# installed by hand, and the test that needs it says so.
install_shellcheck() {
  if command -v shellcheck >/dev/null; then
    return
  fi
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
    echo "setup: shellcheck is missing; install it (Debian: apt-get install shellcheck=$SHELLCHECK_DEB_VERSION)" >&2
    return
  fi
  if ! apt-cache show "shellcheck=$SHELLCHECK_DEB_VERSION" >/dev/null 2>&1; then
    apt-get update -qq
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "shellcheck=$SHELLCHECK_DEB_VERSION" >/dev/null
}

install_test() {
  if [ ! -x tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool ] ||
     [ tools/package-lock.json -nt tools/node_modules/.setup-stamp ]; then
    npm ci --prefix tools --no-audit --no-fund --loglevel=error
    # npm does not run the package's postinstall (chmod) by default.
    chmod u+x tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
    touch tools/node_modules/.setup-stamp
  fi
  if ! tools/bin/actionlint -version 2>/dev/null | grep -q "${ACTIONLINT_VERSION#v}"; then
    go install "github.com/rhysd/actionlint/cmd/actionlint@${ACTIONLINT_VERSION}"
  fi
  if ! has_module tools/bin/reviewdog github.com/reviewdog/reviewdog "$REVIEWDOG_VERSION"; then
    go install "github.com/reviewdog/reviewdog/cmd/reviewdog@${REVIEWDOG_VERSION}"
  fi
}

case "${1:-all}" in
  lint) install_lint ;;
  release) install_release ;;
  bench) install_bench ;;
  all) install_test; install_lint; install_release; install_bench; install_shellcheck ;;
  *) echo "usage: scripts/setup.sh [all|lint|release|bench]" >&2; exit 2 ;;
esac
