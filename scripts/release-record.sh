#!/usr/bin/env bash
# Writes the release record into action.yml: the version the action is
# (composite actions cannot learn their own ref), the repository whose
# release holds the archives, the image by digest, and the SHA-256 of every
# archive, taken from the checksums.txt that scripts/release-build.sh wrote.
# The release workflow runs it on the source commit and commits the result
# as the release commit, which the version's tag then names
# (docs/releasing.md); the tests run it on a copy, as the release does.
#
#   scripts/release-record.sh TAG IMAGE CHECKSUMS [ACTION_YML]
#
#   TAG         v1.2.3; the archives are agc-sarif_1.2.3_OS_ARCH.tar.gz|zip
#   IMAGE       the image by digest: ghcr.io/agcgate/agc-action@sha256:HEX
#   CHECKSUMS   checksums.txt of that version's archives
#   ACTION_YML  the file to rewrite, action.yml by default; its record must
#               be empty (as on main)
#
# The repository is $GITHUB_REPOSITORY (set in the release workflow), else
# agcgate/agc-action.
set -euo pipefail

die() {
  echo "release-record: $*" >&2
  exit 2
}

[ $# -eq 3 ] || [ $# -eq 4 ] || die "usage: scripts/release-record.sh TAG IMAGE CHECKSUMS [ACTION_YML]"
tag=$1 image=$2 checksums=$3 action=${4:-$(dirname "$0")/../action.yml}
repo=${GITHUB_REPOSITORY:-agcgate/agc-action}

[[ $tag =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] || die "the version $tag is not vMAJOR.MINOR.PATCH"
[[ $image =~ ^[a-z0-9][a-z0-9./_:-]*@sha256:[0-9a-f]{64}$ ]] || die "the image $image is not NAME@sha256:DIGEST"
[[ $repo =~ ^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$ ]] || die "the repository $repo is not OWNER/NAME"

# Exactly the six archives of this version, each once, each with a SHA-256.
version=${tag#v}
want=""
for os in darwin linux windows; do
  for arch in amd64 arm64; do
    ext=tar.gz
    if [ "$os" = windows ]; then ext=zip; fi
    want+="agc-sarif_${version}_${os}_${arch}.${ext}"$'\n'
  done
done
lines=$(grep -c '' "$checksums") || die "cannot read $checksums"
got=""
while read -r sum name; do
  [[ $sum =~ ^[0-9a-f]{64}$ ]] || die "$checksums: $name has no SHA-256 ($sum)"
  got+="$name"$'\n'
done <"$checksums"
got=$(sort <<<"$got")
if [ "$got" != "$(sort <<<"$want")" ] || [ "$lines" -ne 6 ]; then
  die "$checksums does not list exactly the six archives of $tag:"$'\n'"$(cat "$checksums")"
fi

out=$(mktemp)
trap 'rm -f "$out"' EXIT
awk -v tag="$tag" -v repo="$repo" -v image="$image" -v checksums="$checksums" '
  function indent() { return substr($0, 1, index($0, "AGC_RELEASE_") - 1) }
  /^ +AGC_RELEASE_VERSION: ""$/ { print indent() "AGC_RELEASE_VERSION: \"" tag "\""; n++; next }
  /^ +AGC_RELEASE_REPOSITORY: ""$/ { print indent() "AGC_RELEASE_REPOSITORY: \"" repo "\""; n++; next }
  /^ +AGC_RELEASE_IMAGE: ""$/ { print indent() "AGC_RELEASE_IMAGE: \"" image "\""; n++; next }
  /^ +AGC_RELEASE_SHA256: ""$/ {
    ind = indent()
    print ind "AGC_RELEASE_SHA256: |"
    while ((getline line < checksums) > 0) print ind "  " line
    n++
    next
  }
  { print }
  END { if (n != 4) exit 3 }
' "$action" >"$out" || die "$action has no empty release record (AGC_RELEASE_VERSION, _REPOSITORY, _IMAGE, _SHA256 set to \"\"): is it a release already?"
cat "$out" >"$action"
echo "release-record: $action records $tag, $image and the SHA-256 of six archives"
