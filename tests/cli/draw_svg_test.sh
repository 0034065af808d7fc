#!/usr/bin/env bash
# `umpire draw` end to end: the SVG has the elements the scenario implies, and a headless chromium
# renders it with the right colours where they belong (a broken picture fails). Skipped (exit 77)
# with a message if chromium is not installed.
set -euo pipefail
umpire="$1"; src="$2"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cd "$src"

count() { grep -o "$2" "$1" | wc -l; }
fail() { echo "FAIL: $*" >&2; exit 1; }

# 1. Elements: A9.222 has one woods hex (BB5), one grain hex (Z4), six counters, two lanes.
"$umpire" draw --ruleset asl a9_222 --fire-lane --alt-grain --svg "$work/a9_222.svg" >/dev/null
[ "$(count "$work/a9_222.svg" 'class="hex woods"')" -eq 1 ] || fail "a9_222: expected 1 woods hex"
[ "$(count "$work/a9_222.svg" 'class="hex grain"')" -eq 1 ] || fail "a9_222: expected 1 grain hex"
[ "$(count "$work/a9_222.svg" 'class="counter"')" -eq 6 ] || fail "a9_222: expected 6 counters"
[ "$(count "$work/a9_222.svg" '<polygon class="lane"')" -ge 6 ] || fail "a9_222: expected the lane hexes"
# The asl ruleset's draw hook labels every lane hex with its Fire Lane Residual FP (A9.222 EX:
# MMG lane 4 in Y4 (PBF), 2 beyond; HMG lane 8 in Z5, 4 in AA6 BB5 CC6 EE6, 0 in DD5): 10 notes.
[ "$(count "$work/a9_222.svg" 'class="note"')" -eq 10 ] || fail "a9_222: expected 10 Residual FP notes"
[ "$(count "$work/a9_222.svg" '>8 FP<')" -eq 1 ] || fail "a9_222: expected 8 FP (PBF) in Z5"
# The same scenario given as a file brings its ruleset (and so its notes) without --ruleset.
"$umpire" draw rulesets/asl/scenarios/a9_222.yaml --fire-lane --svg "$work/by_file.svg" >/dev/null
[ "$(count "$work/by_file.svg" 'class="note"')" -eq 10 ] || fail "a9_222 by file: expected the notes"
"$umpire" draw --ruleset asl a9_221 --fire-lane --svg "$work/a9_221.svg" >/dev/null
[ "$(count "$work/a9_221.svg" 'class="hexside wall"')" -eq 2 ] || fail "a9_221: expected 2 walls"
"$umpire" draw --ruleset asl d2_33_pzkpfw --covered-arc --facing --svg "$work/d2.svg" >/dev/null
[ "$(count "$work/d2.svg" '<polygon class="covered-arc"')" -ge 3 ] || fail "d2_33: expected a covered arc"
# D2.33 EX (a) as the vehicle's path, played by the rules: ½ MP along the road into K1, 1 for the
# VCA change there (1½ in K1), 2 for VBM into K2, then 1 + 2 more in K2: 6½ MP.
"$umpire" draw --ruleset asl d2_33_pzkpfw --path --svg "$work/d2_path.svg" >/dev/null
for label in '>1½ MP<' '>6½ MP<' '>+½ MP<' '>+2 MP<'; do
  [ "$(count "$work/d2_path.svg" "$label")" -eq 1 ] || fail "d2_33 --path: expected one $label"
done
"$umpire" draw --ruleset bolt-action diagram_10 --svg "$work/d10.svg" >/dev/null
[ "$(count "$work/d10.svg" '<circle class="template"')" -eq 2 ] || fail "diagram_10: expected 2 templates"
[ "$(count "$work/d10.svg" 'class="model hit"')" -eq 3 ] || fail "diagram_10: expected 3 models hit"
# A hex-map overlay flag on a tabletop scenario is refused, not silently ignored.
if "$umpire" draw --ruleset bolt-action diagram_10 --facing --svg "$work/d10f.svg" 2> "$work/err"; then
  fail "tabletop accepted --facing"
fi
grep -q "hex-map overlay" "$work/err" || fail "tabletop --facing: unclear error: $(cat "$work/err")"
# A bad hex name is an error with file:line:col.
printf 'name: bad\nmap:\n  hexes:\n    K99: woods\n' > "$work/bad.yaml"
if "$umpire" draw "$work/bad.yaml" --svg "$work/bad.svg" 2> "$work/err"; then fail "bad hex accepted"; fi
grep -q "bad.yaml:4:5" "$work/err" || fail "bad hex: no file:line:col in: $(cat "$work/err")"

# 2. Pixels: chromium renders the plain map; the centre of the woods hex must be woods green.
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "SKIP: chromium is not installed (apt-get install chromium); element checks passed"
  exit 77
fi
"$umpire" draw --ruleset asl a9_222 --svg "$work/plain.svg" >/dev/null
"$src/tests/cli/chromium_screenshot.sh" "$browser" "$work/plain.svg" "$work/out.png" 800,600 || exit 1
python3 "$src/tests/cli/svg_pixels.py" "$work/plain.svg" "$work/out.png" \
  "BB5: woods=#3f7f35" "Z4: grain=#e9d46a" "AA6: open=#f3eed6"
echo "ok: draw SVG elements and chromium pixels"
