#!/usr/bin/env bash
# `umpire odds --svg`: the joint chart and one chart per field beside it, with each numeric
# field's mean and sd in its title, rendered by a headless chromium with the bars where they
# belong (each side's colour at the centre of its bar in a field chart). Skipped (exit 77) with a
# message if chromium is not installed, unless UMPIRE_REQUIRE_TOOLS=1.
# Usage: odds_svg_test.sh UMPIRE SOURCE_DIR
set -euo pipefail
umpire="$1"; src="$2"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
count() { grep -o "$2" "$1" | wc -l; }
cd "$src"

# compare_mg42.lua returns {casualties = N, pins = N}: two fields, both numeric.
"$umpire" odds --ruleset rulesets/bolt-action scripts/bolt-action/compare_mg42.lua \
  --compare rulesets/bolt-action-mg42 --svg "$work/compare.svg" > "$work/compare.txt"
[ "$(count "$work/compare.svg" '<g class="chart joint">')" -eq 1 ] || fail "expected one joint chart"
[ "$(count "$work/compare.svg" '<g class="chart field">')" -eq 2 ] || fail "expected one chart per field (2)"
grep -q '>casualties (original mean 0.6667, sd 0.7454; bolt-action-mg42 mean 0.8333, sd 0.8333)<' "$work/compare.svg" \
  || fail "the casualties chart does not name each side's mean and sd"
grep -q 'at least 100.00%, at most' "$work/compare.svg" || fail "no at least/at most in the bars' tooltips"
# The text gives the same means exactly (the figures themselves are checked by brute force in
# tests/core/odds/ReportStats_test.cpp).
grep -q '^original: mean 2/3, sd 0.7454 (variance 5/9)' "$work/compare.txt" || fail "text: no exact mean"
# Text is built without the SVG and the SVG without text: a plain run with --svg prints the table.
grep -q 'mean 7, sd 2.4152' <<<"$("$umpire" odds 2d6 --svg "$work/plain.svg")" || fail "2d6: no mean in the text"
grep -q '>2d6 — exact, 0 paths (mean 7, sd 2.415)<' "$work/plain.svg" || fail "2d6: no mean in the chart title"

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  msg="chromium is not installed (apt-get install chromium); element checks passed"
  [ "${UMPIRE_REQUIRE_TOOLS:-0}" = 1 ] && fail "$msg"
  echo "SKIP: $msg"; exit 77
fi
"$src/tests/cli/chromium_screenshot.sh" "$browser" "$work/compare.svg" "$work/out.png" 1200,520 || exit 1
python3 "$src/tests/cli/svg_pixels.py" "$work/compare.svg" "$work/out.png" \
  "bar:>casualties (|0 (original=#4e79a7" "bar:>casualties (|1 (bolt-action-mg42=#f28e2b" \
  "bar:>pins (|1 (original=#4e79a7" "bar:>pins (|1 (bolt-action-mg42=#f28e2b" \
  || fail "the field charts do not render as drawn"
echo "ok: odds SVG has a chart per field with its figures, and chromium renders its bars"
