#!/usr/bin/env bash
# Installs the pinned external tools the tests use, into tools/ (git-ignored):
#   - npm packages from tools/package-lock.json: Microsoft's SARIF Multitool,
#     GitHub's OpenAPI description, real webhook payloads;
#   - actionlint and reviewdog from the Go module proxy, into tools/bin.
# Safe to run again; it skips what is already in place.
set -euo pipefail
cd "$(dirname "$0")/.."

ACTIONLINT_VERSION=v1.7.12
REVIEWDOG_VERSION=v0.21.0

if [ ! -x tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool ] ||
   [ tools/package-lock.json -nt tools/node_modules/.setup-stamp ]; then
  npm ci --prefix tools --no-audit --no-fund --loglevel=error
  # npm does not run the package's postinstall (chmod) by default.
  chmod u+x tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
  touch tools/node_modules/.setup-stamp
fi

mkdir -p tools/bin
export GOBIN="$PWD/tools/bin"
if ! tools/bin/actionlint -version 2>/dev/null | grep -q "${ACTIONLINT_VERSION#v}"; then
  go install "github.com/rhysd/actionlint/cmd/actionlint@${ACTIONLINT_VERSION}"
fi
# reviewdog -version prints "master" for a module build: ask the binary's
# build information instead.
if ! go version -m tools/bin/reviewdog 2>/dev/null | grep -q "github.com/reviewdog/reviewdog[[:space:]]*${REVIEWDOG_VERSION}"; then
  go install "github.com/reviewdog/reviewdog/cmd/reviewdog@${REVIEWDOG_VERSION}"
fi
