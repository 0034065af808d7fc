#!/usr/bin/env bash
# Remakes the pictures of docs/tour.md (docs/images/*.svg) with the umpire command given
# (default build/cli/umpire). Deterministic: the same rules give the same files.
set -euo pipefail
cd "$(dirname "$0")/../.."
umpire="$(realpath "${1:-build/cli/umpire}")"
src="$PWD"; out="$src/docs/images"
mkdir -p "$out"
"$umpire" draw --ruleset asl a9_222 --fire-lane --svg "$out/a9_222_fire_lane.svg"
"$umpire" draw --ruleset asl a9_221 --fire-lane --alt-grain --svg "$out/a9_221_alt_grain.svg"
"$umpire" draw --ruleset asl d2_33_pzkpfw --covered-arc --facing --svg "$out/d2_33_covered_arc.svg"
"$umpire" draw --ruleset bolt-action diagram_10 --svg "$out/ba_diagram_10.svg"
"$umpire" odds --ruleset asl scripts/tour/a9_222_first_fire_odds.lua --svg "$out/a9_222_odds.svg" >/dev/null
# The house rule, made fresh in a scratch folder (its name is what the chart's legend shows).
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cp scripts/tour/a9_222_first_fire_odds.lua "$work/"  # so the chart's title names the script, not a path
(cd "$work" && "$umpire" new house-rule mmg-b12 --extends asl --dir . >/dev/null &&
 "$umpire" test --ruleset mmg-b12 >/dev/null &&
 "$umpire" odds --ruleset asl a9_222_first_fire_odds.lua --compare mmg-b12 \
   --svg "$out/a9_222_house_compare.svg" >/dev/null)
echo "wrote $(ls "$out" | wc -l) files in docs/images/"
