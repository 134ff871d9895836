#!/bin/sh
# Cuts the GitHub REST operations ghapi uses out of @octokit/openapi
# (installed by scripts/setup.sh) into ghapi/ghtest/openapi/, which the
# emulator validates every request against. Rerun after changing the
# operation list in ghapi/ghtest/internal/gen/main.go or the package pin.
set -eu
cd "$(dirname "$0")/.."
pkg=tools/node_modules/@octokit/openapi
if [ ! -f "$pkg/generated/api.github.com.json" ]; then
	echo "gen-openapi-subset: $pkg is missing; run scripts/setup.sh" >&2
	exit 1
fi
go run ./ghapi/ghtest/internal/gen -pkg "$pkg" -o ghapi/ghtest/openapi/api.github.com.subset.json
