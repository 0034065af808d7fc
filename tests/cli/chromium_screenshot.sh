#!/usr/bin/env bash
# A headless chromium screenshot of an SVG, offline (no network, no first-run, no sync), with a
# throw-away profile beside the picture. The shared step of the SVG pixel tests (draw, odds).
# Usage: chromium_screenshot.sh BROWSER FILE.svg OUT.png WIDTH,HEIGHT
browser="$1"; svg="$2"; png="$3"; size="$4"
"$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$(dirname "$png")/profile" --screenshot="$png" --window-size="$size" \
  "file://$(realpath "$svg")" >/dev/null 2>&1 || true
[ -s "$png" ] || { echo "FAIL: chromium wrote no screenshot of $svg" >&2; exit 1; }
