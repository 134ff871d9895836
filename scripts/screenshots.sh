#!/usr/bin/env bash
# Photographs what people read, as GitHub would show it: the Markdown
# goldens of review/testdata/looks (an inline comment, a review body, a
# check run's summary) rendered with cmark-gfm, GitHub's own fork of
# CommonMark with its extensions, styled by scripts/screenshots/style.css
# (written for this, not GitHub's), shot by headless Chromium into
# docs/img/. Not part of CI: run `make screenshots` after the goldens
# change (go test ./review -update) and look at the pictures.
#
# It installs the three Debian 12 packages it needs when they are missing
# (as root, with apt-get), pinned below.
set -euo pipefail
cd "$(dirname "$0")/.."

CMARK_GFM_DEB_VERSION=0.29.0.gfm.6-6
CHROMIUM_DEB_VERSION=156.0.8078.114-1~deb12u1
# The marks (⛔ ⚠️ ✅) in colour, as GitHub shows them.
EMOJI_FONT_DEB_VERSION=2.042-0+deb12u1

need() { # need PACKAGE VERSION
  local have
  have=$(dpkg-query -W -f='${Version}' "$1" 2>/dev/null || true)
  if [ "$have" = "$2" ]; then return; fi
  if [ "$(id -u)" != 0 ]; then
    echo "screenshots: $1 $2 is missing (have '${have}'); install it: apt-get install $1=$2" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$1=$2" fonts-dejavu-core >/dev/null
}
need cmark-gfm "$CMARK_GFM_DEB_VERSION"
need chromium "$CHROMIUM_DEB_VERSION"
need fonts-noto-color-emoji "$EMOJI_FONT_DEB_VERSION"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shoot NAME GOLDEN WIDTHxHEIGHT HEADER [DIFF-LINES]: one picture.
shoot() {
  local name=$1 golden=review/testdata/looks/$2.md size=$3 header=$4 diff=${5:-}
  {
    printf '<!doctype html><html><head><meta charset="utf-8"><style>\n'
    cat scripts/screenshots/style.css
    printf '</style></head><body><div class="box"><div class="head">%s</div>\n' "$header"
    if [ -n "$diff" ]; then printf '<div class="file">%s</div>\n' "$diff"; fi
    printf '<div class="body">\n'
    cmark-gfm --unsafe --extension table --extension strikethrough --extension autolink --extension tagfilter "$golden"
    printf '</div></div></body></html>\n'
  } >"$work/$name.html"
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$(mktemp -d -p "$work")" --hide-scrollbars --force-device-scale-factor=1 \
    --window-size="$size" --screenshot="$PWD/docs/img/$name.png" "file://$work/$name.html" 2>/dev/null
  echo "docs/img/$name.png"
}

shoot pr-comment inline-linter 880,350 \
  '<b>github-actions</b> commented on <b>calc/calc.go</b> line 9' \
  '<span class="ln">8</span>&nbsp;&nbsp;}<br><span class="add"><span class="ln">9</span>+ if strings.Index(s, "x") != -1 {</span>'
shoot review-body review-body-gate 880,430 '<b>github-actions</b> reviewed'
shoot check-summary check-summary-gate 880,490 '<b>agc/go-lint</b> · check run summary'
